"""Pages the static site has in place of a server page that cannot run in the browser."""
