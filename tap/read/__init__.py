"""Reading streams: lines and heads, the tailer, the filter language, the index and view model, stats.

A stream is JSON lines appended by many taps at once. Readers trust only lines
that end in a newline, decode only the `RecordHead` of each line for lists,
counts and filters, and the full `Record` lazily, by file offset; a line that is
not a record becomes a `BadLine` that costs only itself.

- lines.py: inputs, chunks, offsets; decode.py: heads and BadLines; merge.py: time, merging streams
- tail.py: following a stream as it grows, is rotated or truncated
- filter*.py: the filter language (tokens, parser, terms, evaluation, a pass over the index)
- index*.py: the columns every line's head is kept in; view.py, focus.py: the watch model
- stats.py, tally.py, groups.py: counts, latencies, rates, patterns; errlog.py: the tap's error log
- last_words.py: the last line a failed hook wrote to stderr (its error)
"""
