"""Framework adapters (optional extras): chronorag as a LangChain or LlamaIndex retriever.

Each adapter lives in its own module and imports its framework there, so importing
``chronorag.integrations`` needs neither framework.
"""
