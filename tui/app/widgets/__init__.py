"""The widgets the apps compose: call list, detail, header, filter bar, patterns, held calls, timeline."""
