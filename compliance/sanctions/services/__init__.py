"""Every write of the sanctions lists: importing a version (``imports``) and running an upload in the
background for the admin site (``background``)."""
