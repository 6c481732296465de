/** Where the end-to-end server listens (E2E_PORT, so several runs can share a machine). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3111)

export const BASE_URL = `http://localhost:${E2E_PORT}`
