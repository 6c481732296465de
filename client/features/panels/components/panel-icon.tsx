import type { LucideIcon, LucideProps } from 'lucide-react'
import Droplets from 'lucide-react/icons/droplets'
import Feather from 'lucide-react/icons/feather'
import Flame from 'lucide-react/icons/flame'
import Flower from 'lucide-react/icons/flower'
import Gem from 'lucide-react/icons/gem'
import HandHeart from 'lucide-react/icons/hand-heart'
import Heart from 'lucide-react/icons/heart'
import Leaf from 'lucide-react/icons/leaf'
import Moon from 'lucide-react/icons/moon'
import Palette from 'lucide-react/icons/palette'
import Scale from 'lucide-react/icons/scale'
import Sparkles from 'lucide-react/icons/sparkles'
import Sprout from 'lucide-react/icons/sprout'
import Sunrise from 'lucide-react/icons/sunrise'
import Target from 'lucide-react/icons/target'
import Trees from 'lucide-react/icons/trees'
import Wheat from 'lucide-react/icons/wheat'

// The icons the seeded panels name, imported one by one: importing lucide by name at run time
// would pull every icon into the bundle.
const ICONS: Record<string, LucideIcon> = {
  Feather,
  Flame,
  Flower,
  Gem,
  HandHeart,
  Heart,
  Leaf,
  Moon,
  Palette,
  Scale,
  Sparkles,
  Sprout,
  Sunrise,
  Target,
  Trees,
  Wheat,
}

export function PanelIcon({ name, ...props }: { name: string } & LucideProps) {
  const Icon = ICONS[name] ?? Droplets
  return <Icon aria-hidden {...props} />
}
