"""Discord cogs: thin translators between slash commands and services."""
