"""`make bench` runs every benchmark here; each prints its own figures."""

import sys

from bench import summary

if __name__ == "__main__":
    sys.exit(summary.run())
