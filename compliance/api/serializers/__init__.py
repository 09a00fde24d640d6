"""Input and output shapes of the compliance endpoints, one module per area."""
