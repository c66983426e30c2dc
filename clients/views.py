"""Account pages of the portal: signing in and out, and the quick exit."""

from django.contrib.auth import logout
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from practice.selectors import practice_settings

# Ask the browser to forget everything of ours it may hold: cached pages,
# cookies, storage. Shared devices are the norm, not the exception.
CLEAR_SITE_DATA = '"cache", "cookies", "storage"'


class PortalLoginView(LoginView):
    template_name = "clients/login.html"
    redirect_authenticated_user = True


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    response = redirect("clients:login")
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


@require_POST
def quick_exit(request: HttpRequest) -> HttpResponse:
    """End the session and leave for the practice's neutral site.

    The page's script calls this with a beacon (``beacon=1``) while it
    replaces itself with the neutral site; without script, the button is a
    plain form post and we redirect there ourselves.
    """
    logout(request)
    if request.POST.get("beacon"):
        response = HttpResponse(status=204)
    else:
        response = HttpResponseRedirect(practice_settings().quick_exit_url)
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response
