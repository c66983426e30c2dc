"""Settings from the environment: development needs none; production requires its secrets."""

from pathlib import Path

import dj_database_url
import phonenumbers
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from practice.api.settings import REST_FRAMEWORK, REST_KNOX, SPECTACULAR_SETTINGS  # noqa: F401
from practice.env import (
    development_field_key,
    development_secret_key,
    email_config,
    env_bool,
    env_choice,
    env_fernet_keys,
    env_int,
    env_list,
    env_str,
    env_time_zone,
    env_url,
    strong_secret_key,
)
from practice.sms.config import sms_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

DJANGO_ENV = env_choice("DJANGO_ENV", "development", {"development", "production", "test"})
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DEBUG", default=DJANGO_ENV == "development")
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG cannot be on when DJANGO_ENV=production.")

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY is required when DJANGO_ENV=production.")
    SECRET_KEY = development_secret_key(VAR_DIR / "secret_key")
elif PRODUCTION:
    SECRET_KEY = strong_secret_key("SECRET_KEY", SECRET_KEY)

# Fernet keys for what clients write, newest first; apart from SECRET_KEY and the backups.
FIELD_ENCRYPTION_KEYS = env_fernet_keys("FIELD_ENCRYPTION_KEYS")
if not FIELD_ENCRYPTION_KEYS:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "FIELD_ENCRYPTION_KEYS is required when DJANGO_ENV=production: what clients write "
            "is stored encrypted with it. Keep it apart from the database's backups."
        )
    FIELD_ENCRYPTION_KEYS = [development_field_key(VAR_DIR / "field_encryption_key")]

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DJANGO_ENV=production.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "practice.apps.PracticeAdminConfig",  # django.contrib.admin, with our site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    "django_otp.plugins.otp_static",  # staff's single-use recovery codes
    "rest_framework",
    "knox",  # the API's tokens, stored hashed (clients.api.tokens)
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from our own static
    "django_filters",  # the API's documented list filters
    "practice",
    "clients",
    "homework",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "practice.middleware.one_entry_middleware",
    "practice.api.middleware.api_error_shape_middleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "clients.middleware.language_middleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "practice.middleware.content_security_policy_middleware",
    "practice.middleware.private_pages_middleware",
    "clients.middleware.portal_session_middleware",
    "clients.middleware.staff_session_middleware",
    "clients.middleware.looks_middleware",
    "practice.middleware.method_not_allowed_page_middleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "practice.urls"
WSGI_APPLICATION = "practice.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "practice.context_processors.safety",
            ],
        },
    },
]

FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

_database_url = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
try:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0)
        )
    }
except ValueError as exc:  # its own message names neither the variable nor a fix
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL we can use: {exc}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE waits for SQLite's one writer instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "practice.User"
LOGIN_URL = "clients:login"
LOGIN_REDIRECT_URL = "homework:dashboard"
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "practice.password_rules.NotLikeTheAccount"},
    {"NAME": "practice.password_rules.LongEnough", "OPTIONS": {"min_length": 8}},
    {"NAME": "practice.password_rules.NotCommon"},
    # No composition rules (NIST SP 800-63B): they only make passwords guessable.
]

AUTHENTICATION_BACKENDS = [
    "clients.lockout.LockoutBackend",
    "clients.backends.PersonBackend",
]
AXES_ENABLED = True  # on everywhere, tests included: they roll its rows back
AXES_HANDLER = "clients.lockout.PracticeAxesHandler"
# Per account and address: a guesser elsewhere never locks the owner out of their device.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = "clients.lockout.failure_limit"
AXES_COOLOFF_TIME = "clients.lockout.cool_off"
AXES_LOCKOUT_CALLABLE = "clients.lockout.lockout_response"
AXES_USERNAME_CALLABLE = "clients.lockout.username_of_attempt"
AXES_CLIENT_IP_CALLABLE = "practice.requests.client_address"
# Proxies in front that set X-Forwarded-For/-Proto; 0 behind one locks everyone out together.
PROXIES_IN_FRONT = env_int("PROXIES_IN_FRONT", 0, minimum=0)
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no banner on every start and command
AXES_ENABLE_ADMIN = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_SENSITIVE_PARAMETERS = [
    "username",
    "email",
    "old_password",
    "new_password1",
    "new_password2",
    "password1",
    "password2",
]
PASSWORD_RESETS_PER_HOUR = 3

# Redis is optional: without it tasks run in-process and the cache is local.
REDIS_URL = env_url("REDIS_URL", "", {"redis", "rediss", "unix"})
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A stalled Redis must not hold a page: give up fast and read the database.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://localhost/"  # a host, or kombu warns that it has none
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A broker outage fails fast (the sweeps resend); the visibility timeout outlasts any retry wait.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 2,
    "visibility_timeout": 3600,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Named here so that practice names no app above it; practice.delivery runs them.
DELIVERY_SWEEPS = (
    "homework.tasks.notify_pending_submissions",
    "clients.tasks.email_pending_invitations",
)
CELERY_BEAT_SCHEDULE = {
    "notify-pending-submissions": {
        "task": "homework.tasks.notify_pending_submissions",
        "schedule": 300.0,
    },
    "email-pending-invitations": {
        "task": "clients.tasks.email_pending_invitations",
        "schedule": 300.0,
    },
    # A static schedule, not django-celery-beat: reviewed as code, nothing for staff to edit.
    "scan-reminders": {
        "task": "homework.tasks.scan_reminders",
        "schedule": 300.0,
    },
    "prepare-tomorrows-summaries": {
        "task": "homework.tasks.prepare_tomorrows_summaries",
        "schedule": crontab(hour=19, minute=0),
    },
    "purge-stale-summaries": {
        "task": "homework.tasks.purge_stale_summaries",
        "schedule": crontab(hour=3, minute=30),
    },
    "purge-done-messages": {
        "task": "homework.tasks.purge_done_messages",
        "schedule": crontab(hour=3, minute=45),
    },
    "purge-expired-downloads": {
        "task": "homework.tasks.purge_expired_downloads",
        "schedule": 900.0,
    },
    # A program's step comes within a quarter of an hour of its day starting where the client is.
    "release-program-steps": {
        "task": "homework.tasks.release_program_steps",
        "schedule": 900.0,
    },
    # An alert past the practice's limit reaches the manager within five minutes.
    "escalate-alerts": {
        "task": "homework.tasks.escalate_alerts",
        "schedule": 300.0,
    },
    "scan-digests": {
        "task": "homework.tasks.scan_digests",
        "schedule": crontab(minute=5),
    },
}

_email = email_config(env_str("EMAIL_URL", "console://"))
EMAIL_BACKEND = _email.backend
EMAIL_HOST = _email.host
EMAIL_PORT = _email.port
EMAIL_HOST_USER = _email.user
EMAIL_HOST_PASSWORD = _email.password
EMAIL_USE_SSL = _email.use_ssl
EMAIL_USE_TLS = _email.use_tls
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Notifications <notifications@localhost>")
# Seconds per step of a send; Django's default waits forever, holding a page or a row lock.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
# A provider through django-anymail (EMAIL_URL=anymail+postmark://TOKEN).
ANYMAIL = {**_email.anymail, "REQUESTS_TIMEOUT": EMAIL_TIMEOUT} if _email.anymail else {}

# SMS_URL: console://, locmem:// (tests) or twilio://SID:TOKEN@api.twilio.com?from=+44…
_sms = sms_config(env_str("SMS_URL", "console://"))
SMS_BACKEND = _sms.backend
SMS_OPTIONS = _sms.options
# Seconds to reach the SMS provider, then per step of its answer.
SMS_CONNECT_TIMEOUT = env_int("SMS_CONNECT_TIMEOUT", 5, minimum=1)
SMS_READ_TIMEOUT = env_int("SMS_READ_TIMEOUT", 10, minimum=1)

# The languages the practice offers (each person chooses theirs; the code is never in a URL).
LANGUAGES = [("en-gb", "English"), ("es", "Español")]
# Everyone's language until they choose one, and the browser's when it asks for none offered.
LANGUAGE_CODE = env_choice("PRACTICE_LANGUAGE", "en-gb", {code for code, _name in LANGUAGES})
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["practice.formats"]
TIME_ZONE = env_time_zone("TIME_ZONE", "Europe/London")
CELERY_TIMEZONE = TIME_ZONE
USE_I18N = True
USE_TZ = True
# The country of a phone number typed without its country code.
PHONENUMBER_DEFAULT_REGION = env_choice(
    "PHONENUMBER_DEFAULT_REGION", "GB", set(phonenumbers.SUPPORTED_REGIONS)
)

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Prepared session summaries: clinical records at rest, never served by URL.
    "summaries": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": str(VAR_DIR / "summaries"),
            "file_permissions_mode": 0o600,
            "directory_permissions_mode": 0o700,
        },
    },
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Storages encrypted with the field keys, so rotate_field_keys re-encrypts them too.
ENCRYPTED_STORAGES = ("summaries",)
MEDIA_ROOT = VAR_DIR / "media"

# Sessions: short and server-side. Clients may be on a shared device.
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 60 * 60 * 8, minimum=60)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# Not Django's cookie: anyone holding the device could read the notes there.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
CSRF_COOKIE_HTTPONLY = True
# Session-only: a year-old cookie on a shared device says someone used the portal.
CSRF_COOKIE_AGE = None
CSRF_FAILURE_VIEW = "practice.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# A portal session's longest life, however active (the idle timeout is in PracticeSettings).
PORTAL_SESSION_MAX_AGE = env_int("PORTAL_SESSION_MAX_AGE", 60 * 60 * 4, minimum=60)
# Days an invitation link works, counted on the client's calendar.
INVITATION_MAX_AGE_DAYS = env_int("INVITATION_MAX_AGE_DAYS", 7, minimum=1)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 60 * 60 * 2, minimum=60)
# An authenticator app shows this name beside the code: neutral on purpose.
OTP_TOTP_ISSUER = "Notebook"

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # A load balancer probes over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Without a proxy that sets it, any client could claim https.
if PROXIES_IN_FRONT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000", {"http", "https"}).rstrip("/")
if PRODUCTION and not SITE_URL.startswith("https://"):
    # Invitation and reset links carry a token that sets a password.
    raise ImproperlyConfigured(
        "SITE_URL must be the site's https:// address when DJANGO_ENV=production."
    )

LONG_TEXT_MAX_CHARS = 20_000
SHORT_TEXT_MAX_CHARS = 300
# 40 long answers at their limit, 12 bytes a character (percent-encoded UTF-8).
DATA_UPLOAD_MAX_MEMORY_SIZE = 40 * LONG_TEXT_MAX_CHARS * 12 + 1_000_000
# 40 long answers at their limit, every character a six-byte \uXXXX escape.
API_MAX_BODY_BYTES = 40 * LONG_TEXT_MAX_CHARS * 6 + 1_000_000

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "filters": {"refused_forms": {"()": "practice.refusals.RefusedFormFilter"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # A form sent back with its errors answers 400 on purpose: not a warning.
        "django.request": {"filters": ["refused_forms"]},
        # One handler, the root's, so no django.* line prints twice.
        "django": {"handlers": []},
        "axes": {"level": "WARNING"},
        # In-process tasks would bury the server's own output.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
        "weasyprint": {"level": "WARNING"},
    },
}
