"""The practice's password rules, in words for the people who meet them."""

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class LongEnough(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This is shorter than %(min_length)d character. A few words together, "
            "like “quiet harbour morning”, are long enough and easy to remember.",
            "This is shorter than %(min_length)d characters. A few words together, "
            "like “quiet harbour morning”, are long enough and easy to remember.",
            self.min_length,
        ) % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return ngettext(
            "At least %(min_length)d character: a few words together are strong "
            "and easy to remember.",
            "At least %(min_length)d characters: a few words together are strong "
            "and easy to remember.",
            self.min_length,
        ) % {"min_length": self.min_length}


class NotCommon(password_validation.CommonPasswordValidator):
    def get_error_message(self) -> str:
        return _("Many people use this password, so it is easy to guess. Choose another.")

    def get_help_text(self) -> str:
        return _("Not one of the passwords many people use.")


class NotLikeTheAccount(password_validation.UserAttributeSimilarityValidator):
    def get_error_message(self) -> str:
        return _(
            "This is too close to your %(verbose_name)s, so it is easy to guess. Choose another."
        )

    def get_help_text(self) -> str:
        return _("Not close to your name or email address.")
