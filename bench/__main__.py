"""Benchmarks live here (`make bench`); the suite arrives with the PDF summary."""

import sys

if __name__ == "__main__":
    print("No benchmarks yet: the PDF summary benchmark comes with the summary itself.")
    sys.exit(0)
