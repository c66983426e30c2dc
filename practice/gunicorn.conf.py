"""gunicorn's settings: sync workers, as the TLS proxy in front buffers slow clients."""

import multiprocessing
import os
from pathlib import Path

wsgi_app = "practice.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}").split(",")

# Two per core and one more; WEB_CONCURRENCY is the name hosts set.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
worker_class = "sync"

# Longer than any request should take; a worker stuck past it is replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# A fresh worker now and then returns memory PDF rendering held on to.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = max_requests // 10
# A missing secret stops the server once, not in every worker.
preload_app = True
worker_tmp_dir = "/dev/shm" if Path("/dev/shm").is_dir() else None  # noqa: S108 (gunicorn's documented choice)  # nosec B108

# Only the proxy on this machine may say where a request came from.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# Several servers on one machine would fight over the control socket's fixed path.
control_socket_disable = True

# The path, never the query string (tokens), nor referrer or user agent.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms'
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
