from pe import Chat
