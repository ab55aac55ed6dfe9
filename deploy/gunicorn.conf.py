"""gunicorn's settings for suji: gunicorn -c /etc/suji/gunicorn.conf.py suji.web.wsgi:app

Several worker processes, each with a few threads: a request waiting on the database does not hold a whole
process, and a worker that dies is replaced by the master. The app keeps nothing that matters in a process's
memory (the database is the truth), so any worker may answer any request. Options on gunicorn's command line
override these (the tests start it with -b and -w of their own).
"""

import multiprocessing

# nginx on the same machine talks to this address (deploy/nginx/suji-site.conf's upstream).
bind = "127.0.0.1:8000"

# Two workers a core (at least two), four threads each.
workers = max(2, 2 * multiprocessing.cpu_count())
worker_class = "gthread"
threads = 4

# Keep-alive connections from nginx (its upstream keepalive) stay open a little longer than nginx keeps them.
keepalive = 75

# A request that takes longer than this is stuck: its worker is restarted. Each worker is also replaced after
# a few thousand requests, so memory never creeps.
timeout = 60
graceful_timeout = 30
max_requests = 5000
max_requests_jitter = 500

# The app reads X-Forwarded-* itself (ProxyFix, SUJI_TRUSTED_PROXIES=1): gunicorn leaves them alone.
forwarded_allow_ips = "127.0.0.1"
secure_scheme_headers = {}

# Logs to systemd's journal.
accesslog = "-"
errorlog = "-"
loglevel = "info"


def post_worker_init(worker):  # noqa: ANN001, ANN201 - gunicorn's hook
    """Freeze what the worker built at start (the app, its modules and tables), as `suji serve` does: the full
    garbage collections then no longer walk it while requests come and go."""
    import gc

    gc.freeze()
