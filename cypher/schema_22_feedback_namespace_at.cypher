// Schema: a namespace's labelled searches in question-time order (what train-reranker reads).
// Params: none. Returns: nothing.
CREATE RANGE INDEX feedback_namespace_at IF NOT EXISTS FOR (n:Feedback) ON (n.namespace, n.at)
