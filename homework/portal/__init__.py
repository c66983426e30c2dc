"""Portal pages of the account that need the client's homework: taking their
records with them, and keeping their last words on the quick exit. Their
addresses sit among the account's (/account/export.pdf, /exit/); clients/
knows nothing of homework, so they live here."""
