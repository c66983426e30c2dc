"""gunicorn's settings for serving the practice (`make serve`; README, "Serving").

Sync workers, one request at a time each: the app is synchronous Django,
and the TLS proxy in front buffers slow clients, so a worker is never held
by a slow phone. Every value can be changed from the environment.
"""

import multiprocessing
import os
from pathlib import Path

wsgi_app = "practice.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}").split(",")

# gunicorn's usual rule, two per core and one more: while one waits on the
# database another uses the core. WEB_CONCURRENCY is the name hosts set.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
worker_class = "sync"

# Longer than any request should take (the largest summary is prepared by the
# worker, not in a request); a worker stuck past it is killed and replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
# The proxy keeps connections to us open between requests.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# A fresh worker now and then returns whatever memory PDF rendering held on to;
# the jitter keeps them from all restarting at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = max_requests // 10
# Settings are checked once, before any worker starts: a missing secret stops
# the server with its message rather than failing in every worker.
preload_app = True
# The heartbeat file on memory, not a disk that may stall (containers mount /tmp on overlay).
worker_tmp_dir = "/dev/shm" if Path("/dev/shm").is_dir() else None  # noqa: S108 (gunicorn's documented choice)  # nosec B108

# Only the proxy on this machine may say which address and scheme a request
# came from (X-Forwarded-For / -Proto); PROXIES_IN_FRONT is Django's side of it.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# Several servers on one machine (README): gunicorn's control socket has one
# fixed path per user, which a second server would take from the first.
control_socket_disable = True

# The access log names the path, never the query string (%(U)s, not %(r)s):
# a reset token or a search typed into a form has no place in a log. No
# referrer or user agent either: they say which pages someone came from.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms'
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
