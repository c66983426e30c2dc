"""The large practice the benchmarks and the load test run on.

``python -m bench.large_practice N`` loads N therapists (therapist-01@scale.test …)
with 50 clients each (client-0001@scale.test …, numbered across therapists), a
year of work, and manager@scale.test, all signing in with SCALE_PASSWORD; staff
add the demo's second step. Run it again to add nothing, or with a larger N to
add therapists (keep the same --clients-per-therapist).
"""
