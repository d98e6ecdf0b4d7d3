// The raw postMessage baseline: answers every message with itself.
onmessage = (event: MessageEvent) => postMessage(event.data);
