"""Account pages of the portal; the quick exit and the export need the homework, so live there."""
