"""Views of the compliance endpoints, one module per area."""
