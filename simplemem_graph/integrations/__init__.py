"""First-party adapters from agent frameworks' memory interfaces to a `Memory`.

One module per framework, each imported on its own so that the core install needs none of them:

- `integrations.langgraph.SimpleMemStore`: a LangGraph `BaseStore` (`pip install simplemem-graph[langgraph]`)
- `integrations.openai_agents.SimpleMemSession`: an OpenAI Agents SDK `Session` (`[openai-agents]`)
- `integrations.autogen.SimpleMemMemory`: an AutoGen `Memory` (`[autogen]`)
- `integrations.llama_index.SimpleMemBlock`: a LlamaIndex memory block (`[llama-index]`)

docs/integrations.md maps each framework's notions onto ours.
"""
