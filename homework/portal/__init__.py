"""The client's portal pages for homework: To do (todo), doing an exercise (doing, do_page, with the
autosave script's words: autosave_text), a sent entry's pages (entry_pages), looking back
(looking_back), and the account's pages that need the homework: the download (export,
export_views) and the quick exit that keeps the last words (quick_exit). clients/ knows nothing
of homework, so these live here; their addresses (urls, namespace "homework") sit beside the
account's."""
