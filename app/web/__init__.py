"""HTML pages for people (French). Free to change; the JSON API is the stable contract."""
