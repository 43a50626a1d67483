"""The league bot: rules, storage, services and the Discord front end."""
