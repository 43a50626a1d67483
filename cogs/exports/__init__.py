"""A season's export (`/league admin export`, `league-bot export`): every table
the league keeps as CSV files, with the kept score photos, zipped.

`exports.py` the service (one read, so the files agree with each other);
`exports_text.py` the files themselves (CSV safe to open in a spreadsheet, the
zip, a folder) and the answers, the roster import's included (a roster file is
the export's players.csv, read back). The command is one of `/league admin`'s
(`cogs/league/admin.py`); what the service returns is shared with the roster
import (`bot/services/outcomes/exports.py`).
"""
