import type { Preview } from '@storybook/react-vite'
import { petstoreSim } from 'petstore-orders-simulator/storybook'

const preview: Preview = {
  // exposeStatus: the list carries each order's status, so the component can show "cancelled".
  loaders: [petstoreSim({ exposeStatus: true })],
}
export default preview
