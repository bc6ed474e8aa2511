"""Tool calls: the hooks that answered one call, grouped, and what they came to together."""
