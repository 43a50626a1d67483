"""The commissioner's /league subcommands, by subject; `cogs.commissioner` is the cog."""
