"""The API's base views: who may call them, and one way to answer with a page of a list."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from practice.api.permissions import IsPracticeStaff


class ListingView(GenericAPIView[Any]):
    def page_of(
        self, rows: QuerySet[Any], *, shown: Callable[[Sequence[Any]], Iterable[Any]] = list
    ) -> Response:
        """One page of ``rows`` through the view's serializer, with the pagination's links;
        ``shown`` turns the page's rows into what is serialized (decrypted, summed up)."""
        page = self.paginate_queryset(rows) or []
        return self.get_paginated_response(self.get_serializer(shown(page), many=True).data)


class StaffView(ListingView):
    permission_classes = [IsAuthenticated, IsPracticeStaff]
