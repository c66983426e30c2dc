"""Account pages of the portal, one module per part."""
