"""The practice's own reading of times, on top of Django's for en-GB.

Sessions are booked to the minute: Django's first time format has seconds,
so every booked time read "10:30:00" and the admin's "Now" wrote seconds
too. Times typed with seconds are still read.

The lists the admin draws itself (entries sent, a client's next session)
read Django's "2:48 a.m." and "10 a.m." beside "02:48" and "10:00"
everywhere else (admin home, portal, summary): the same 24-hour clock here.
"""

DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S", "%H:%M:%S.%f"]
