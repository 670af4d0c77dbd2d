"""Plain-text helpers below every stage (sentence bounds)."""
