import type { Preview } from '@storybook/react-vite'
import { http, HttpResponse } from 'msw'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { petstoreSim } from 'petstore-orders-simulator/storybook'

const sim = petstoreSim({ exposeStatus: true })

const preview: Preview = {
  // The addon's worker is the simulator's (sim.startWorker): the simulator's handlers are its
  // initial handlers, and the addon's per-story parameters.msw handlers go on top of them.
  loaders: [sim, mswLoader(sim.startWorker)],
  parameters: {
    // The project's own handlers, for every story; a story's parameters.msw.handlers add to them by key.
    msw: { handlers: { greeting: [http.get('/api/greeting', () => HttpResponse.json({ greeting: 'hello from the project' }))] } },
  },
}
export default preview
