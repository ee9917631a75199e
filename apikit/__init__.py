"""The stateless calculator API, and the kit every API endpoint builds on.

Modules:

* ``calculator`` and ``urls``: ``POST /api/v1/score/``, a game scored without
  storing anything;
* ``fields``: how numbers and engine choices cross the API;
* ``errors``: error bodies, their OpenAPI description, engine refusals as
  serializer errors;
* ``defaults`` and ``schema``: the classes ``REST_FRAMEWORK`` names in the
  settings (credentials, parsing, pages, ordering, the OpenAPI schema class).

Nothing here imports from ``tournaments``: the tournament API builds on this
package, not the other way round. This file imports nothing, so that the
settings can name ``apikit.defaults`` without loading DRF's views.
"""
