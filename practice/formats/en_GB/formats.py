"""The practice's own reading of times, on top of Django's for en-GB.

Sessions are booked to the minute: Django's first time format has seconds,
so every booked time read "10:30:00" and the admin's "Now" wrote seconds
too. Times typed with seconds are still read.
"""

TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S", "%H:%M:%S.%f"]
