"""Account pages of the portal, one module per part: getting in and out
(sign_in), the invitation (invitations), the account page with what it
holds (account); and the staff's sign-in to the admin in two steps
(staff_two_step). The quick exit and taking your records with you need the
homework, and live with it (homework.portal)."""
