"""URL map. The API lives under /api/v1/ (no language prefix); every page
is also served under /<lang>/ for the rulebook languages, English without a
prefix."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic.base import RedirectView

from config.health import healthz
from tournaments.web.offline import service_worker


class FaviconView(RedirectView):
    """``/favicon.ico``, which browsers and feed readers ask for unbidden: the
    project's icon (the pages link it too). Not permanent: its static name
    changes with its content."""

    permanent = False
    http_method_names = ["get", "head"]

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("icons/app-192.png")


api_v1 = [
    path("", include("calculator.api_urls")),
    path("", include("tournaments.api.urls")),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    # At the root, so that the worker's scope covers the match pages of every language.
    path("sw.js", service_worker, name="service-worker"),
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
]
urlpatterns += i18n_patterns(
    path("", include("tournaments.web.urls")),
    path("", include("tournaments.documents.urls")),
    prefix_default_language=False,
)
