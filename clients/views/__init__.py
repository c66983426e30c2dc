"""Account pages of the portal, one module per part: getting in and out (sign_in), the invitation
(invitations), and the account page with what it holds (account). The quick exit and taking your
records with you need the homework, and live with it (homework.portal)."""
