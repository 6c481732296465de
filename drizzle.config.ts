import { defineConfig } from 'drizzle-kit'

// Only `generate` is used: migrations are written to db/migrations and committed, then applied
// by the server at start-up. Never point drizzle-kit at a live server's data directory.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
})
