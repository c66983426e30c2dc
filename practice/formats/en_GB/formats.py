DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S", "%H:%M:%S.%f"]
# The project's named shapes (practice/dates.py); MONTH_DAY_FORMAT is Django's own "j F".
LONG_DATE_FORMAT = "j F Y"
LONG_DATETIME_FORMAT = "j F Y, H:i"
WEEKDAY_DATE_FORMAT = "l j F"
WEEKDAY_DATETIME_FORMAT = "l j F Y, H:i"
# What a date without its year gains when the year must be named ("7 Dec" -> "7 Dec 2027").
YEAR_ADDED_FORMAT = " Y"
# Abbreviated months, for tight places (the summary, charts): "Mon 7 Dec".
ABBR_MONTH_DAY_FORMAT = "j M"
ABBR_DATE_FORMAT = "j M Y"
ABBR_WEEKDAY_DATE_FORMAT = "D j M"
ABBR_WEEKDAY_DATETIME_FORMAT = "D j M, H:i"
# Shapes the pages use (admin and portal); each has its Spanish twin in es/formats.py.
WEEKDAY_LONG_DATE_FORMAT = "l j F Y"
WEEKDAY_MONTH_DAY_TIME_FORMAT = "l j F, H:i"
ABBR_DATETIME_FORMAT = "j M Y, H:i"
ABBR_MONTH_DAY_TIME_FORMAT = "j M, H:i"
ABBR_WEEKDAY_YEAR_DATETIME_FORMAT = "D j M Y, H:i"
ABBR_WEEKDAY_TIME_FORMAT = "D H:i"
