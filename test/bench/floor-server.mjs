// The floor of this design: express + msw's getResponse with one static
// handler that returns precomputed bytes, no simulator logic at all.
// Usage: node floor-server.mjs <body-file> <port>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import express from 'express'
import { getResponse, http } from 'msw'

const body = new Uint8Array(readFileSync(process.argv[2]))
const handlers = [http.get('*/v1/store/orders', () => new Response(body, { headers: { 'Content-Type': 'application/json' } }))]
const app = express()
app.disable('x-powered-by')
app.set('etag', false)
app.set('query parser', false)
app.use(async (req, res) => {
  const response = await getResponse(handlers, new Request(`http://${req.headers.host}${req.originalUrl}`, { headers: req.headers }))
  if (response === undefined) {
    res.status(404).end()
    return
  }
  res.statusCode = response.status
  for (const [name, value] of response.headers) res.setHeader(name, value)
  res.end(Buffer.from(await response.arrayBuffer()))
})
const server = createServer(app).listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`ready ${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
