"""gunicorn for `make serve`: loopback only, one process per core, a few threads each.

Threads (gthread) rather than more processes: on two cores, 2 workers x 4 threads
served ~6,400 trivial and ~2,840 calculator-fragment requests/s against ~5,300
and ~2,500 for sync workers (shared/field-notes.md), and keep-alive works.
WEB_CONCURRENCY and GUNICORN_THREADS override the sizes.
"""

import multiprocessing
import os

bind = f"127.0.0.1:{os.environ.get('PORT', '8000')}"
wsgi_app = "prepsite.wsgi:application"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count())
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS") or 4)
keepalive = 5
preload_app = True  # import Django once; workers fork with it loaded (and the secret key read)
timeout = 30
graceful_timeout = 10
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
control_socket_disable = True  # no gunicornc here; keeps two servers from sharing ~/.gunicorn
