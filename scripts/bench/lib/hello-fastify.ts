// The reference for the HTTP load: a bare Fastify 5 hello-world, in a process of its own like the
// app, so both pay the same for their process and neither shares the load generator's thread.
// Prints its address as one JSON line, then serves until SIGTERM.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
const address = await app.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(`${JSON.stringify({ address })}\n`)
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0))
})
