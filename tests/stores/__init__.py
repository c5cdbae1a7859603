"""The stores (`core/stores/`): the Nuggets graph file, its fact files, homes and demo, living
beside the agent; the MicroClaw database read, planned, written, promoted and raced by the bot."""
