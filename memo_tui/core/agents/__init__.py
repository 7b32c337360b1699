"""Agents: durable, tool-using runs that keep living documents (runtime, tools, policies)."""
