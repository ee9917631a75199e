"""The two-node cluster bench (``make cluster``): Rackscore scaled out on one machine.

Vocabulary: the *stack* is what the bench starts and stops: PostgreSQL and
Redis (through ``scripts/postgres-up.sh`` and ``scripts/redis-up.sh``), two
*nodes* (gunicorn, ``config/gunicorn.py``, each on its own port, both on the
same ``DATABASE_URL`` and ``REDIS_URL``), the background *worker*
(``manage.py db_worker``, when the project has it) and *nginx*, the load
balancer in front of both nodes (a generated ``nginx.conf`` in a temporary
folder, run in the foreground as a child). The *event* is a 1,000-player
tournament seated at 250 tables for one round of 4 games. The *load* (one
asyncio thread, keep-alive connections through nginx) has three *phases*:
``quiet`` (the round is being played: only polls), ``entry`` (the tables post
their 1,000 games within 60 s) and ``after`` (polls again). All along, 1,000
*phones* poll the public standings every 10 s and 4 *projectors* their
screen's state every 5 s, each with the last ``ETag`` it got in
``If-None-Match``. The *anchor* is ``GET /healthz`` through nginx (one
``SELECT 1``), alone before the load and beside it during the load.

Modules: ``stack`` (start and stop), ``event`` (the tournament, the games
counted afterwards), ``load`` (the clients and their figures), ``__main__``
(the run and its table). Run it as root with ``make cluster``.
"""
