"""Framework adapters (optional extras): chronorag as a LangChain or LlamaIndex retriever,
and its questions as MCP tools (``chronorag mcp``).

Each adapter lives in its own module and imports its framework there, so importing
``chronorag.integrations`` needs neither framework.
"""
