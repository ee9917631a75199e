"""Rackscore settings. Everything that differs between installations comes
from the environment (README, "Production"): DATABASE_URL, DJANGO_SECRET_KEY,
DJANGO_DEBUG (off unless set: ``make run`` and the tests turn it on),
DJANGO_ALLOWED_HOSTS and DJANGO_CSRF_TRUSTED_ORIGINS (comma-separated),
DJANGO_STATIC_ROOT, DJANGO_SSL_REDIRECT, DJANGO_SECURE_COOKIES,
DJANGO_HSTS_SECONDS, DJANGO_PROXY_COUNT, DJANGO_LOG_LEVEL, RACKSCORE_CACHE_MAX_MB
(each worker's memory cache), REDIS_URL (one cache for several nodes),
RACKSCORE_TASKS (background work: database or
immediate), RACKSCORE_VISITOR_BODY_MAX (the largest body a
page takes from a visitor), DJANGO_EMAIL_URL (how mail leaves: config.email),
RACKSCORE_SIGNUP (anyone may sign up; 0 turns it off), DJANGO_PG_PREPARE
(PostgreSQL: runs of a statement after which it is prepared; 0 never)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.utils.translation import gettext_lazy as _

from config.caches import cache_settings
from config.email import email_settings
from config.sqlite_writers import QueuedWriterConnection

# Lets admin.ModelAdmin[Model] and friends be subscripted at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# Off unless asked for: a deployment that forgets the variable must not show
# debug pages or run on the development key.
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
            "(for development, set DJANGO_DEBUG=1 or use `make run`)"
        )
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "axes",
    "django_tasks",
    "django_tasks.backends.database",
    "calculator",
    "tournaments",
]

MIDDLEWARE = [
    # Outermost: every answer leaves with its Content-Security-Policy and
    # Permissions-Policy, the JSON error bodies made below included.
    "config.security_headers.SecurityHeadersMiddleware",
    # Compresses what every middleware below wrote (the JSON errors' bodies
    # included), last of those that touch a body; an answer carrying a secret
    # (a match token, an API key) stays uncompressed against BREACH
    # (config.compression). Above anything that computes an ETag from the
    # body, as Django asks.
    "config.compression.SecretSafeGZipMiddleware",
    # Sees every other answer, so any error under /api/v1/ leaves as JSON.
    "apikit.middleware.ApiJsonErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the CSRF check, the first to read a form: a page's body over its
    # limit is refused unread (config.body_limits).
    "config.body_limits.BodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Turns a login refused for a lock into a 429 (config.login_guard).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.web.accounts.accounts_context",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock at BEGIN, so concurrent read-modify-write
    # waits for it (up to "timeout" seconds: SQLite's busy timeout) instead of
    # failing with "database is locked" at its first write. WAL lets readers
    # run beside the writer; NORMAL syncs at checkpoints, not at every commit.
    # Tests run in memory.
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # Writers queue for their turn instead of polling (config.sqlite_writers).
        "factory": QueuedWriterConnection,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, and a statement run five times on a
    # connection prepared there (psycopg's own cache): the recording's
    # statements are planned once per connection instead of once per game,
    # which halves PostgreSQL's work for a recorded game. Persistent
    # connections (DJANGO_CONN_MAX_AGE) keep the prepared statements; a pooler
    # in transaction mode in front of PostgreSQL cannot (set
    # DJANGO_PG_PREPARE=0 behind one).
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": env_int("DJANGO_PG_PREPARE", 5) or None,
        **DATABASES["default"].get("OPTIONS", {}),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Axes first: it refuses a locked username and address before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts (tournaments.web.accounts): anyone may sign up unless
# RACKSCORE_SIGNUP=0 (the page then answers 404 and nothing links it). One
# client address may post the sign-up and password-reset forms
# RACKSCORE_ACCOUNT_POSTS_PER_HOUR times an hour (429 after), so neither
# accounts nor reset mails can be made in bulk.
RACKSCORE_SIGNUP = env_bool("RACKSCORE_SIGNUP", True)
RACKSCORE_ACCOUNT_POSTS_PER_HOUR = env_int("RACKSCORE_ACCOUNT_POSTS_PER_HOUR", 10)
# Outgoing mail (password resets): DJANGO_EMAIL_URL, read by config.email.
globals().update(email_settings(os.environ.get("DJANGO_EMAIL_URL"), debug=DEBUG))

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("da", _("Danish")),
    ("sv", _("Swedish")),
    ("nb", _("Norwegian Bokmål")),
    ("de", _("German")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A language picked with the switcher is kept for a year: it wins over a
# tournament's own language at its tables (tournaments.web.table_language).
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Copenhagen")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic writes each file also gzipped and brotli-compressed. In
# production every file is served under a name holding its content's hash
# (js/site.3f2a9c1b7e4d.js, from the manifest collectstatic writes): a changed
# file is a new name, so whitenoise lets browsers keep hashed names for good
# (max-age of ten years, immutable). With debug on (make run, the tests) names
# stay plain and nothing needs collecting first.
STORAGES: dict[str, Any] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Pages and PDFs built from a tournament are kept under its version
# (tournaments.caching): a write makes a new key, so nothing is ever stale.
# One node: each worker's memory cache is bounded in bytes (config.memory_cache),
# so that no sequence of requests grows a worker past it: RACKSCORE_CACHE_MAX_MB
# (64 by default: about 70 standings pages of 1,000 rows, 0.9 MB each as
# measured), and PDFs are kept in a folder the node's workers share
# (RACKSCORE_CACHE_DIR). Workers are also recycled (config/gunicorn.py,
# max_requests). Several nodes: REDIS_URL puts both caches in one Redis
# (config.caches).
CACHES = cache_settings(
    redis_url=os.environ.get("REDIS_URL", "").strip() or None,
    memory_max_bytes=env_int("RACKSCORE_CACHE_MAX_MB", 64) * 1024 * 1024,
    files_dir=os.environ.get("RACKSCORE_CACHE_DIR", str(BASE_DIR / ".cache" / "files")),
)

# Request bodies (config.body_limits). Django's own limits: a form's fields
# (not its files) in memory, how many fields and files one request may hold
# (a desk form ticks up to 1,000 players at once), and how large an uploaded
# file stays in memory before it goes to a temporary file.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
DATA_UPLOAD_MAX_NUMBER_FILES = 2
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# A request without a signed-in user (the login form, a table's match page,
# the language switch) posts a few hundred bytes: a page refuses more than
# this unread (413). A signed-in user's form may be DATA_UPLOAD_MAX_MEMORY_SIZE;
# a players list or a backup (its own limit, RACKSCORE_BACKUP_MAX_MB) more.
RACKSCORE_VISITOR_BODY_MAX = env_int("RACKSCORE_VISITOR_BODY_MAX", 64 * 1024)

LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apikit.defaults.KeyTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "apikit.defaults.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_PARSER_CLASSES": [
        "apikit.defaults.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "apikit.defaults.NamedSearchFilter",
        "apikit.defaults.StableOrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "apikit.schema.ErrorsAutoSchema",
    "EXCEPTION_HANDLER": "config.exceptions.api_exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Rackscore API",
    "DESCRIPTION": (
        "Keep score for Rummikub and run club nights, leagues and tournaments.\n\n"
        "Log in with `POST /api/v1/auth/token/` and send `Authorization: Token <key>`; "
        "a session (the browsable API) works too. Anyone reads public tournaments; their "
        "owner and staff change them; a match's private token, sent as `X-Match-Token`, "
        "records and reads that match's games. After 5 wrong passwords for one username "
        "from one address within 15 minutes, the token login answers 429 with `Retry-After` "
        "for 15 minutes. Errors are DRF's field-keyed bodies "
        '(`{"racks": ["..."]}`); scores are JSON numbers.'
    ),
    "VERSION": "1.0.0",
    # OpenAPI 3.1: a field that may be null says so in JSON Schema's own words
    # (`type: [..., "null"]`, `oneOf: [{$ref}, {type: "null"}]`), which strict
    # validators and client generators read as written.
    "OAS_VERSION": "3.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "apikit.schema.nullable_as_json_schema",
    ],
    "GET_LIB_DOC_EXCLUDES": "apikit.schema.lib_doc_excludes",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Ids in paths (tournaments.api.urls.IdConverter) are integers.
    "PATH_CONVERTER_OVERRIDES": {
        "api_id": {"type": "integer", "minimum": 1, "maximum": 9223372036854775807}
    },
    # Same field name, different choices: each enum gets a name of its own.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "TournamentKindEnum": "tournaments.models.Tournament.Kind",
        "AdjustmentKindEnum": "tournaments.models.Adjustment.Kind",
        "StageEnum": "tournaments.models.Round.Stage",
    },
    # Swagger UI and ReDoc served from our own static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

# Login protection (django-axes, config.login_guard): 5 wrong passwords for one
# username from one address within 15 minutes lock that pair for 15 minutes
# after the last of them; a right password before that clears the count.
# The failures are rows in the database every node shares (axes' database
# handler), with REDIS_URL too: axes' cache handler keeps only a count, not the
# time of the last failure that Retry-After is counted from (config.login_guard),
# and a cache full of pages and PDFs may evict a count, lifting a lock early.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Tries during a lock are refused but do not extend it: Retry-After stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "config.login_guard.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.login_guard.client_address"
# Successful logins are not recorded: only failures count towards a lock.
AXES_DISABLE_ACCESS_LOG = True
# Backups (the desk's upload, the API's body, the command): the largest file,
# and the most games, one restore takes. The README's proxy example lets bodies
# of RACKSCORE_BACKUP_MAX_MB through. A document over either of the REQUEST
# limits is checked in the request and restored by the task worker (about 4 ms
# a game with its history on a 2-core machine, bench/bench_backups.py: 200
# games is under a second); smaller ones are restored in the request.
RACKSCORE_BACKUP_MAX_MB = env_int("RACKSCORE_BACKUP_MAX_MB", 64)
RACKSCORE_BACKUP_GAMES_MAX = env_int("RACKSCORE_BACKUP_GAMES_MAX", 40000)
RACKSCORE_BACKUP_REQUEST_MB = env_int("RACKSCORE_BACKUP_REQUEST_MB", 2)
RACKSCORE_BACKUP_REQUEST_GAMES = env_int("RACKSCORE_BACKUP_REQUEST_GAMES", 200)
# A request reads a file whole (JSON, counts, format) up to this size, about a
# quarter of a second; a larger one is only glanced at (UTF-8, an object, the
# format and version it opens with) and read by the worker.
RACKSCORE_BACKUP_READ_MB = env_int("RACKSCORE_BACKUP_READ_MB", 8)
# A round's score sheets with more pages than this are drawn by the task worker
# (about 20 ms a page: 250 pages is 5 s of CPU); the link answers "being
# prepared" until the file is in the files cache.
RACKSCORE_SHEETS_REQUEST_PAGES = env_int("RACKSCORE_SHEETS_REQUEST_PAGES", 40)

# Background work (django-tasks): the database backend, its queue drained by
# `manage.py db_worker` (started beside gunicorn by `make serve`); with debug
# on (`make run`, the tests) tasks run in the process that enqueues them.
# RACKSCORE_TASKS=database|immediate chooses either way.
TASKS_BACKEND = os.environ.get("RACKSCORE_TASKS", "immediate" if DEBUG else "database").strip()
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks.backends.immediate.ImmediateBackend"
            if TASKS_BACKEND == "immediate"
            else "django_tasks.backends.database.DatabaseBackend"
        ),
    },
}
# How many reverse proxies stand in front (each appending to X-Forwarded-For);
# 0 (the default) trusts only the connection's own address.
RACKSCORE_PROXY_COUNT = env_int("DJANGO_PROXY_COUNT", 0)

# HTTPS. With debug off the site expects a TLS-terminating proxy that sets
# X-Forwarded-Proto; each protection can be turned off for a plain-HTTP trial.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", not DEBUG)
# A health probe often speaks plain HTTP straight to the worker.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
# Off unless set: browsers remember HSTS for its whole lifetime, so it is
# turned on deliberately once HTTPS works (README).
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
# A match page's address holds its private token: it never leaves the site in
# a Referer. Content-Security-Policy and Permissions-Policy: config.security_headers.
SECURE_REFERRER_POLICY = "same-origin"

# Every handler masks match tokens (config.log_filters). Django's own loggers
# are named here so that its default handlers, which would not mask, are replaced.
LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "match_tokens": {"()": "config.log_filters.MatchTokenMask"},
        "health_probes": {"()": "config.health.ProbeFailureLogged"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["match_tokens"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["match_tokens"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # As Django's own default: its INFO lines (the autoreloader's) in development.
        "django": {"handlers": [], "level": "INFO" if DEBUG else LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # A failed health probe is the view's warning line, not a server error.
        "django.request": {"filters": ["health_probes"]},
    },
}
