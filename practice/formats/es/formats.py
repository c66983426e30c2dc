# Django's Spanish formats, with the project's named shapes (practice/dates.py) in Spanish order.
LONG_DATE_FORMAT = r"j \d\e F \d\e Y"
LONG_DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i"
WEEKDAY_DATE_FORMAT = r"l j \d\e F"
WEEKDAY_DATETIME_FORMAT = r"l j \d\e F \d\e Y, H:i"
# What a date without its year gains when the year must be named ("7 dic" -> "7 dic de 2027").
YEAR_ADDED_FORMAT = r" \d\e Y"
# Abbreviated months in lower case, as Spanish writes them ("lun 7 dic"; Django's "M" says "Dic").
ABBR_MONTH_DAY_FORMAT = "j b"
ABBR_DATE_FORMAT = r"j b \d\e Y"
ABBR_WEEKDAY_DATE_FORMAT = "D j b"
ABBR_WEEKDAY_DATETIME_FORMAT = "D j b, H:i"
# Shapes the pages use (admin and portal), as en_GB/formats.py names them.
WEEKDAY_LONG_DATE_FORMAT = r"l j \d\e F \d\e Y"
WEEKDAY_MONTH_DAY_TIME_FORMAT = r"l j \d\e F, H:i"
ABBR_DATETIME_FORMAT = r"j b \d\e Y, H:i"
ABBR_MONTH_DAY_TIME_FORMAT = "j b, H:i"
ABBR_WEEKDAY_YEAR_DATETIME_FORMAT = r"D j b \d\e Y, H:i"
ABBR_WEEKDAY_TIME_FORMAT = "D H:i"
