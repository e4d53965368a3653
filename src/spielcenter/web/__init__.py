"""The browser client (``static/``) and its message catalogues (``i18n/``)."""
