"""The client's portal pages for homework: To do, doing an exercise, a sent entry's pages, looking
back, and the account's pages that need the homework: the download and the quick exit that keeps
the last words. clients/ knows nothing of homework, so these live here."""
