"""The web pages, by audience: ``public`` (anyone who may see the tournament),
``match`` (the table holding a match's token) and ``organise`` (the
tournament's organisers). Views stay thin: they read through the selectors,
write through the services and ask ``tournaments.access`` who may do what."""
