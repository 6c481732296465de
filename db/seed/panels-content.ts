// The 16 themed panels and the nine affirmations, in English and Spanish. Data, not logic: edit a
// text here and the next start updates it. Writing rules (PRODUCT.md, "Writing content"): warm,
// plain, short sentences, no medical claims, no pseudo-measurements. panels-content.test.ts guards
// the shape, the uniqueness of ingredients and a list of forbidden claim words.

export interface LocalizedText {
  en: string
  es: string
}

export interface PanelContent {
  /** '01' to '16'. */
  id: string
  solfeggioHz: 174 | 285 | 396 | 417 | 528 | 639 | 741 | 852 | 963
  /** A lucide-react icon name (PascalCase). */
  icon: string
  /** Three hex colors, deep, mid and light, used as the fractal gradient. */
  palette: readonly [string, string, string]
  name: LocalizedText
  /** One sentence for the panel card. */
  description: LocalizedText
  /** A few short sentences for the panel-info page. */
  info: LocalizedText
  /** Words that rotate on screen during the session; same count and order in both languages. */
  ingredients: { en: readonly string[]; es: readonly string[] }
}

export interface AffirmationContent {
  id: string
  text: LocalizedText
}

export const PANELS: readonly PanelContent[] = [
  {
    id: '01',
    solfeggioHz: 285,
    icon: 'Leaf',
    palette: ['#1d4a44', '#5eb3a0', '#d9f1ea'],
    name: { en: 'Digestion', es: 'Digestión' },
    description: {
      en: 'A gentle pause around mealtime, with gratitude for the food that nourishes you.',
      es: 'Una pausa serena en torno a la comida, con gratitud por los alimentos que te nutren.',
    },
    info: {
      en: 'This panel is a quiet moment to share with your meal. Place your glass of water near the screen and let your shoulders soften. Breathe slowly, read the words as they pass, and think of the hands that grew and prepared your food. When the session ends, drink your water unhurried and enjoy your meal.',
      es: 'Este panel es un momento tranquilo para acompañar tu comida. Coloca tu vaso de agua cerca de la pantalla y deja que los hombros se relajen. Respira despacio, lee las palabras que van pasando y piensa en las manos que cultivaron y prepararon tus alimentos. Al terminar, bebe tu agua sin prisa y disfruta de la comida.',
    },
    ingredients: {
      en: [
        'Gentle warmth',
        'Mint freshness',
        'Slow breaths',
        'Gratitude for food',
        'Unhurried bites',
        'Lemon zest',
        'A shared table',
        'Seasonal harvest',
        'Kitchen aromas',
        'Quiet contentment',
      ],
      es: [
        'Calidez suave',
        'Frescura de menta',
        'Respiraciones lentas',
        'Gratitud por la comida',
        'Bocados sin prisa',
        'Ralladura de limón',
        'Una mesa compartida',
        'Cosecha de temporada',
        'Aromas de cocina',
        'Serena satisfacción',
      ],
    },
  },
  {
    id: '02',
    solfeggioHz: 396,
    icon: 'Feather',
    palette: ['#1f3a63', '#6a93c9', '#dde8f6'],
    name: { en: 'Calm', es: 'Calma' },
    description: {
      en: 'Three slow minutes to let the day settle, like still water in a glass.',
      es: 'Tres minutos lentos para que el día se asiente, como el agua quieta en un vaso.',
    },
    info: {
      en: 'Calm is an invitation to slow down. Place your glass near the screen, rest your hands and let your breath find its own pace. Follow the words without effort, and let thoughts come and go like ripples on water. Return to this moment whenever the day feels busy.',
      es: 'Calma es una invitación a ir más despacio. Coloca tu vaso cerca de la pantalla, deja descansar las manos y permite que la respiración encuentre su propio ritmo. Sigue las palabras sin esfuerzo y deja que los pensamientos vengan y se vayan como ondas en el agua. Vuelve a este momento siempre que el día se vuelva agitado.',
    },
    ingredients: {
      en: [
        'Still water',
        'Soft exhale',
        'Feather lightness',
        'A quiet room',
        'Slow tides',
        'Evening breeze',
        'Open hands',
        'Gentle rain',
        'Patience',
      ],
      es: [
        'Agua quieta',
        'Exhalación suave',
        'Ligereza de pluma',
        'Una habitación tranquila',
        'Mareas lentas',
        'Brisa del atardecer',
        'Manos abiertas',
        'Lluvia suave',
        'Paciencia',
      ],
    },
  },
  {
    id: '03',
    solfeggioHz: 174,
    icon: 'Moon',
    palette: ['#1a1840', '#514b9b', '#d6d4f0'],
    name: { en: 'Sleep', es: 'Sueño' },
    description: {
      en: 'An evening ritual to close the day softly and welcome a restful night.',
      es: 'Un ritual de noche para cerrar el día con suavidad y dar la bienvenida al descanso.',
    },
    info: {
      en: 'This panel is made for the end of the day. Dim the lights, place your glass near the screen and let your breathing grow slow and long. Read the words as if they were a lullaby, and let the day drift away. Keep your water by your bed if you like, as a small sign of rest.',
      es: 'Este panel está pensado para el final del día. Baja la luz, coloca tu vaso cerca de la pantalla y deja que tu respiración se vuelva lenta y profunda. Lee las palabras como si fueran una canción de cuna y deja que el día se aleje. Si quieres, deja el agua junto a tu cama como un pequeño gesto de descanso.',
    },
    ingredients: {
      en: [
        'Moonlight',
        'Warm blanket',
        'Lavender fields',
        'A starry sky',
        'Soft pillows',
        'Night silence',
        'Drifting clouds',
        'Candle glow',
        'A whispered lullaby',
        'Letting the day go',
      ],
      es: [
        'Luz de luna',
        'Manta cálida',
        'Campos de lavanda',
        'Un cielo estrellado',
        'Almohadas suaves',
        'Silencio nocturno',
        'Nubes a la deriva',
        'Luz de vela',
        'Una canción de cuna susurrada',
        'Soltar el día',
      ],
    },
  },
  {
    id: '04',
    solfeggioHz: 417,
    icon: 'Sunrise',
    palette: ['#7a3320', '#ef8a62', '#fde2d4'],
    name: { en: 'Morning Energy', es: 'Energía matinal' },
    description: {
      en: 'A bright start: greet the morning with fresh water and a clear intention.',
      es: 'Un comienzo luminoso: recibe la mañana con agua fresca y una intención clara.',
    },
    info: {
      en: 'Begin your day with a few minutes just for you. Place your glass near the screen, sit comfortably and take a few deep, easy breaths. As the words pass, choose one intention for the hours ahead. Drink your water slowly and step into the day at your own pace.',
      es: 'Empieza el día con unos minutos solo para ti. Coloca tu vaso cerca de la pantalla, siéntate cómodamente y haz unas respiraciones profundas y tranquilas. Mientras pasan las palabras, elige una intención para las horas que vienen. Bebe tu agua despacio y entra en el día a tu propio ritmo.',
    },
    ingredients: {
      en: [
        'First light',
        'Birdsong',
        'Morning dew',
        'Open windows',
        'A long stretch',
        'Golden rays',
        'Orange blossom',
        'A fresh page',
        'Bright intentions',
        'Light footsteps',
      ],
      es: [
        'Primera luz',
        'Canto de pájaros',
        'Rocío de la mañana',
        'Ventanas abiertas',
        'Un largo estiramiento',
        'Rayos dorados',
        'Flor de azahar',
        'Una página en blanco',
        'Intenciones luminosas',
        'Pasos ligeros',
      ],
    },
  },
  {
    id: '05',
    solfeggioHz: 741,
    icon: 'Target',
    palette: ['#113f52', '#2f8fae', '#d3ecf5'],
    name: { en: 'Focus', es: 'Enfoque' },
    description: {
      en: 'A quiet reset before work or study, to gather your attention in one place.',
      es: 'Una pausa serena antes de trabajar o estudiar, para reunir tu atención en un solo lugar.',
    },
    info: {
      en: 'Focus is a short ritual to set distractions aside. Turn off notifications, place your glass near the screen and rest your eyes on the moving light. Breathe in for four counts and out for four, and let each word bring you back to the present. When the timer ends, begin one task, and only one.',
      es: 'Enfoque es un breve ritual para dejar a un lado las distracciones. Desactiva las notificaciones, coloca tu vaso cerca de la pantalla y deja descansar la mirada en la luz que se mueve. Inhala contando hasta cuatro, exhala contando hasta cuatro y deja que cada palabra te traiga de vuelta al presente. Cuando termine el temporizador, empieza una tarea, y solo una.',
    },
    ingredients: {
      en: [
        'One steady flame',
        'A tidy desk',
        'Sharpened pencils',
        'Counted breaths',
        'The next small step',
        'A quiet library',
        'Steady rhythm',
        'A single task',
        'Patient attention',
      ],
      es: [
        'Una llama serena',
        'Un escritorio ordenado',
        'Lápices afilados',
        'Respiraciones contadas',
        'El siguiente paso',
        'Una biblioteca tranquila',
        'Ritmo constante',
        'Una sola tarea',
        'Atención paciente',
      ],
    },
  },
  {
    id: '06',
    solfeggioHz: 852,
    icon: 'Gem',
    palette: ['#3a2a5e', '#9585c9', '#ede8f8'],
    name: { en: 'Clarity', es: 'Claridad' },
    description: {
      en: 'A clear-minded moment to see what matters, like light through crystal.',
      es: 'Un momento de mente clara para ver lo que importa, como la luz a través del cristal.',
    },
    info: {
      en: 'Clarity invites you to look gently at what is on your mind. Place your glass near the screen and notice how light passes through the water. Breathe softly and, as the words appear, let one simple question rest with you. You do not need an answer right away; trust that it will come.',
      es: 'Claridad te invita a mirar con suavidad lo que ocupa tu mente. Coloca tu vaso cerca de la pantalla y observa cómo la luz atraviesa el agua. Respira con calma y, mientras aparecen las palabras, deja que una pregunta sencilla te acompañe. No necesitas una respuesta enseguida; confía en que llegará.',
    },
    ingredients: {
      en: [
        'Crystal light',
        'Clean windows',
        'A clear lake',
        'Mist lifting',
        'Quartz sparkle',
        'Honest questions',
        'Simple answers',
        'Wide horizons',
        'Sorted thoughts',
      ],
      es: [
        'Luz de cristal',
        'Ventanas limpias',
        'Un lago transparente',
        'La niebla que se disipa',
        'Brillo de cuarzo',
        'Preguntas sinceras',
        'Respuestas sencillas',
        'Horizontes amplios',
        'Pensamientos ordenados',
      ],
    },
  },
  {
    id: '07',
    solfeggioHz: 528,
    icon: 'Heart',
    palette: ['#5e1f45', '#c96a9b', '#f6dcea'],
    name: { en: 'Love', es: 'Amor' },
    description: {
      en: 'A tender moment to open your heart to yourself and to the people you love.',
      es: 'Un momento tierno para abrir el corazón a ti y a las personas que quieres.',
    },
    info: {
      en: 'This panel is a space for love in all its forms. Place your glass near the screen, rest a hand on your chest and breathe warmly. As the words pass, bring to mind someone dear to you, and then yourself. Drink your water as a small gesture of care.',
      es: 'Este panel es un espacio para el amor en todas sus formas. Coloca tu vaso cerca de la pantalla, apoya una mano en el pecho y respira con calidez. Mientras pasan las palabras, piensa en alguien querido y luego en ti. Bebe tu agua como un pequeño gesto de cariño.',
    },
    ingredients: {
      en: [
        'Rose petals',
        'A warm embrace',
        'Kind words',
        'Soft smiles',
        'Handwritten letters',
        'Open arms',
        'Self-kindness',
        'Forgiveness',
        'Sweet memories',
        'Tenderness',
      ],
      es: [
        'Pétalos de rosa',
        'Un abrazo cálido',
        'Palabras amables',
        'Sonrisas suaves',
        'Cartas escritas a mano',
        'Brazos abiertos',
        'Amor propio',
        'Perdón',
        'Recuerdos dulces',
        'Ternura',
      ],
    },
  },
  {
    id: '08',
    solfeggioHz: 639,
    icon: 'HandHeart',
    palette: ['#6b4514', '#d3a04a', '#f7ead0'],
    name: { en: 'Gratitude', es: 'Gratitud' },
    description: {
      en: 'A thankful pause to notice the good things, big and small, in your life.',
      es: 'Una pausa agradecida para notar las cosas buenas, grandes y pequeñas, de tu vida.',
    },
    info: {
      en: 'Gratitude turns an ordinary glass of water into a small celebration. Place your glass near the screen and breathe slowly. With each word, name one thing you are thankful for today, however simple. End by thanking the water itself, and drink it with a smile.',
      es: 'La gratitud convierte un simple vaso de agua en una pequeña celebración. Coloca tu vaso cerca de la pantalla y respira despacio. Con cada palabra, nombra algo que hoy agradezcas, por sencillo que sea. Termina dando las gracias al agua y bébela con una sonrisa.',
    },
    ingredients: {
      en: [
        'Thank-you notes',
        'Everyday blessings',
        'A full glass',
        'Kind neighbors',
        'Honey sweetness',
        'Friendly faces',
        'Small wonders',
        'Daily bread',
        'A roof overhead',
        'A humble heart',
      ],
      es: [
        'Notas de agradecimiento',
        'Bendiciones cotidianas',
        'Un vaso lleno',
        'Vecinos amables',
        'Dulzura de miel',
        'Caras amigas',
        'Pequeñas maravillas',
        'El pan de cada día',
        'Un techo que te cobija',
        'Un corazón humilde',
      ],
    },
  },
  {
    id: '09',
    solfeggioHz: 528,
    icon: 'Sparkles',
    palette: ['#6f5a0e', '#e9c544', '#fcf4cc'],
    name: { en: 'Joy', es: 'Alegría' },
    description: {
      en: 'A light-hearted moment to welcome play, laughter and a little sparkle into your day.',
      es: 'Un momento alegre para dar la bienvenida al juego, la risa y un poco de brillo en tu día.',
    },
    info: {
      en: 'Joy is a panel for lightness. Place your glass near the screen, let a smile reach your eyes and breathe easily. As the words dance by, remember a moment that made you laugh. Let that feeling stay with you as you drink your water.',
      es: 'Alegría es un panel para la ligereza. Coloca tu vaso cerca de la pantalla, deja que una sonrisa te llegue a los ojos y respira con soltura. Mientras las palabras bailan, recuerda un momento que te hizo reír. Deja que esa sensación te acompañe mientras bebes tu agua.',
    },
    ingredients: {
      en: [
        'Shared laughter',
        'Sunflowers',
        'Soap bubbles',
        'A favorite song',
        'Summer afternoons',
        'Confetti',
        'Childlike wonder',
        'Colorful kites',
        'Skipping stones',
        'Spontaneous dancing',
      ],
      es: [
        'Risas compartidas',
        'Girasoles',
        'Burbujas de jabón',
        'Tu canción favorita',
        'Tardes de verano',
        'Confeti',
        'Asombro infantil',
        'Cometas de colores',
        'Piedras rebotando en el agua',
        'Bailes espontáneos',
      ],
    },
  },
  {
    id: '10',
    solfeggioHz: 417,
    icon: 'Wheat',
    palette: ['#4a5218', '#a4ad4c', '#eef0d2'],
    name: { en: 'Abundance', es: 'Abundancia' },
    description: {
      en: 'A generous moment to feel how much is already here, and to welcome more.',
      es: 'Un momento generoso para sentir todo lo que ya tienes y abrirte a recibir más.',
    },
    info: {
      en: 'Abundance begins with noticing what you already have. Place your glass near the screen and look at it as a full, generous glass. Breathe deeply and, as the words rise, picture something good you would like to grow in your life. Drink your water with trust and an open heart.',
      es: 'La abundancia empieza por notar lo que ya tienes. Coloca tu vaso cerca de la pantalla y míralo como un vaso lleno y generoso. Respira hondo y, mientras surgen las palabras, imagina algo bueno que te gustaría ver crecer en tu vida. Bebe tu agua con confianza y el corazón abierto.',
    },
    ingredients: {
      en: [
        'Golden wheat',
        'Overflowing baskets',
        'Fruitful orchards',
        'Open doors',
        'Generous hands',
        'Sunlit fields',
        'Plenty to share',
        'Seeds of possibility',
        'Shining coins',
        'New opportunities',
      ],
      es: [
        'Trigo dorado',
        'Cestas rebosantes',
        'Árboles cargados de fruta',
        'Puertas abiertas',
        'Manos generosas',
        'Campos soleados',
        'Mucho para compartir',
        'Semillas de posibilidad',
        'Monedas brillantes',
        'Nuevas oportunidades',
      ],
    },
  },
  {
    id: '11',
    solfeggioHz: 639,
    icon: 'Scale',
    palette: ['#4a3f36', '#a39383', '#efe9e2'],
    name: { en: 'Balance', es: 'Equilibrio' },
    description: {
      en: 'A centering pause to find your middle ground between doing and resting.',
      es: 'Una pausa para encontrar tu centro, entre el hacer y el descansar.',
    },
    info: {
      en: 'Balance is a moment to come back to your center. Place your glass near the screen, feel both feet on the floor and let your breath move evenly in and out. As the words pass, notice where your day has been too full or too empty. Choose one small change, and let it be enough.',
      es: 'Equilibrio es un momento para volver a tu centro. Coloca tu vaso cerca de la pantalla, siente los dos pies en el suelo y deja que la respiración entre y salga con calma. Mientras pasan las palabras, observa en qué momentos tu día ha estado demasiado lleno o demasiado vacío. Elige un pequeño cambio y deja que sea suficiente.',
    },
    ingredients: {
      en: [
        'Even breaths',
        'Steady ground',
        'Stacked stones',
        'Day and night',
        'Balanced scales',
        'The middle path',
        'Ebb and flow',
        'Giving and receiving',
        'Work and rest',
        'Harmony of opposites',
      ],
      es: [
        'Respiraciones parejas',
        'Suelo firme',
        'Piedras apiladas',
        'El día y la noche',
        'Balanza en equilibrio',
        'El camino del medio',
        'Flujo y reflujo',
        'Dar y recibir',
        'Trabajo y descanso',
        'Armonía de opuestos',
      ],
    },
  },
  {
    id: '12',
    solfeggioHz: 396,
    icon: 'Flame',
    palette: ['#5c1018', '#b8323e', '#f4d3d5'],
    name: { en: 'Courage', es: 'Valentía' },
    description: {
      en: 'A steady moment to gather your strength before a step that matters to you.',
      es: 'Un momento sereno para reunir fuerzas antes de dar un paso importante para ti.',
    },
    info: {
      en: 'Courage is not the absence of fear; it is choosing to move gently forward. Place your glass near the screen, sit or stand tall and take three full breaths. As the words appear, picture yourself taking the step you have in mind. Drink your water as a promise to yourself.',
      es: 'La valentía no es la ausencia de miedo, sino elegir avanzar con suavidad. Coloca tu vaso cerca de la pantalla, siéntate o ponte de pie con la espalda recta y haz tres respiraciones completas. Mientras aparecen las palabras, imagínate dando el paso que tienes en mente. Bebe tu agua como una promesa que te haces.',
    },
    ingredients: {
      en: [
        'Inner fire',
        "A lion's heart",
        'Firm footsteps',
        'Brave choices',
        'Glowing embers',
        'Steep trails',
        'A steady voice',
        'Quiet strength',
        'Trust in yourself',
      ],
      es: [
        'Fuego interior',
        'Corazón de león',
        'Pasos firmes',
        'Decisiones valientes',
        'Brasas encendidas',
        'Senderos empinados',
        'Una voz serena',
        'Fuerza tranquila',
        'Confianza en ti',
      ],
    },
  },
  {
    id: '13',
    solfeggioHz: 285,
    icon: 'Sprout',
    palette: ['#2e5418', '#7dba4c', '#e4f3d6'],
    name: { en: 'Renewal', es: 'Renovación' },
    description: {
      en: 'A fresh-start ritual to let go of what is done and welcome what is new.',
      es: 'Un ritual para empezar de nuevo: soltar lo que ya pasó y recibir lo nuevo.',
    },
    info: {
      en: 'Renewal is a moment to turn the page. Place your glass near the screen and breathe out slowly, as if letting go of something heavy. As the words pass, think of one thing you are ready to leave behind and one thing you want to begin. Drink your water as a fresh start.',
      es: 'Renovación es un momento para pasar página. Coloca tu vaso cerca de la pantalla y exhala despacio, como si soltaras algo pesado. Mientras pasan las palabras, piensa en algo que ya puedes dejar atrás y en algo que quieres empezar. Bebe tu agua como un nuevo comienzo.',
    },
    ingredients: {
      en: [
        'Spring buds',
        'Green shoots',
        'After the rain',
        'A clean slate',
        'Falling leaves',
        'Butterfly wings',
        'Fresh linen',
        'Melting snow',
        'Second chances',
      ],
      es: [
        'Brotes de primavera',
        'Retoños verdes',
        'Después de la lluvia',
        'Borrón y cuenta nueva',
        'Hojas que caen',
        'Alas de mariposa',
        'Sábanas limpias',
        'Nieve que se derrite',
        'Segundas oportunidades',
      ],
    },
  },
  {
    id: '14',
    solfeggioHz: 174,
    icon: 'Trees',
    palette: ['#1c3b26', '#4f8a5b', '#dbeadb'],
    name: { en: 'Nature', es: 'Naturaleza' },
    description: {
      en: 'Bring the forest, the sea and the open sky into a simple glass of water.',
      es: 'Trae el bosque, el mar y el cielo abierto a un sencillo vaso de agua.',
    },
    info: {
      en: 'Nature reminds you that you are part of something larger. Place your glass near the screen, or near a window if you can, and breathe as if you were outdoors. As the words pass, picture a place in nature you love, with its sounds and scents. Drink your water slowly, as if from a mountain spring.',
      es: 'Naturaleza te recuerda que formas parte de algo más grande. Coloca tu vaso cerca de la pantalla, o junto a una ventana si puedes, y respira como si estuvieras al aire libre. Mientras pasan las palabras, imagina un lugar de la naturaleza que ames, con sus sonidos y aromas. Bebe tu agua despacio, como si viniera de un manantial de montaña.',
    },
    ingredients: {
      en: [
        'Mountain springs',
        'Pine forests',
        'Ocean waves',
        'Mossy stones',
        'Wildflowers',
        'Forest paths',
        'Warm earth',
        'Mountain air',
        'Riverside willows',
        'Open sky',
      ],
      es: [
        'Manantiales de montaña',
        'Bosques de pinos',
        'Olas del mar',
        'Piedras con musgo',
        'Flores silvestres',
        'Senderos del bosque',
        'Tierra cálida',
        'Aire de montaña',
        'Sauces junto al río',
        'Cielo abierto',
      ],
    },
  },
  {
    id: '15',
    solfeggioHz: 963,
    icon: 'Flower',
    palette: ['#4a2350', '#a974b0', '#f1e2f3'],
    name: { en: 'Inner Peace', es: 'Paz interior' },
    description: {
      en: 'A still, spacious moment to rest in the quiet place within you.',
      es: 'Un momento quieto y amplio para descansar en el lugar sereno que hay dentro de ti.',
    },
    info: {
      en: 'Inner Peace is the gentlest of the panels. Place your glass near the screen, close your eyes from time to time and let your breath grow soft. As the words appear, repeat one of them silently, like a quiet mantra. There is nothing to do and nowhere to go; simply be here with your water.',
      es: 'Paz interior es el más suave de los paneles. Coloca tu vaso cerca de la pantalla, cierra los ojos de vez en cuando y deja que tu respiración se vuelva suave. Mientras aparecen las palabras, repite una de ellas en silencio, como un mantra tranquilo. No hay nada que hacer ni ningún lugar adonde ir; simplemente quédate aquí con tu agua.',
    },
    ingredients: {
      en: [
        'A lotus flower',
        'Temple bells',
        'Silent snowfall',
        'Deep stillness',
        'The present moment',
        'Sandalwood scent',
        'Whispered mantras',
        'Spacious silence',
        'Inner light',
        'Gentle acceptance',
      ],
      es: [
        'Una flor de loto',
        'Campanas del templo',
        'Nieve cayendo en silencio',
        'Quietud profunda',
        'El momento presente',
        'Aroma de sándalo',
        'Mantras susurrados',
        'Silencio amplio',
        'Luz interior',
        'Aceptación serena',
      ],
    },
  },
  {
    id: '16',
    solfeggioHz: 741,
    icon: 'Palette',
    palette: ['#3b2552', '#e0795f', '#fbe3cf'],
    name: { en: 'Creativity', es: 'Creatividad' },
    description: {
      en: 'A playful pause to wake up your imagination and let new ideas flow.',
      es: 'Una pausa lúdica para despertar tu imaginación y dejar que fluyan nuevas ideas.',
    },
    info: {
      en: 'Creativity is a panel for curiosity. Place your glass near the screen, keep a notebook close and breathe in an easy rhythm. Let the colors and words spark images and ideas without judging them. When the session ends, drink your water and write down whatever came to you.',
      es: 'Creatividad es un panel para la curiosidad. Coloca tu vaso cerca de la pantalla, ten un cuaderno a mano y respira con un ritmo tranquilo. Deja que los colores y las palabras despierten imágenes e ideas sin juzgarlas. Al terminar la sesión, bebe tu agua y anota lo que haya surgido.',
    },
    ingredients: {
      en: [
        'A blank canvas',
        'Splashes of color',
        'Wild ideas',
        'An open notebook',
        'Paintbrush strokes',
        'Daydreams',
        'Soft clay',
        'Kaleidoscope patterns',
        'Melodies in the air',
        'Sparks of inspiration',
      ],
      es: [
        'Un lienzo en blanco',
        'Salpicaduras de color',
        'Ideas atrevidas',
        'Un cuaderno abierto',
        'Pinceladas',
        'Ensoñaciones',
        'Arcilla blanda',
        'Patrones de caleidoscopio',
        'Melodías en el aire',
        'Chispas de inspiración',
      ],
    },
  },
]

/** One per theme of the spec (§1), in its order; they rotate every 7 s during a session. */
export const AFFIRMATIONS: readonly AffirmationContent[] = [
  {
    id: 'a1',
    text: {
      en: 'I welcome Divine Love into this water and into my day.',
      es: 'Recibo el Amor Divino en esta agua y en mi día.',
    },
  },
  {
    id: 'a2',
    text: {
      en: 'Light fills this glass and shines through every part of me.',
      es: 'La luz llena este vaso y brilla en todo mi ser.',
    },
  },
  {
    id: 'a3',
    text: {
      en: 'I care for my health with kindness, in small choices every day.',
      es: 'Cuido mi salud con cariño, con pequeñas decisiones cada día.',
    },
  },
  {
    id: 'a4',
    text: {
      en: 'Peace settles in this water and in my heart.',
      es: 'La paz reposa en esta agua y en mi corazón.',
    },
  },
  {
    id: 'a5',
    text: {
      en: 'I live my truth with a clear mind and an open heart.',
      es: 'Vivo mi verdad con la mente clara y el corazón abierto.',
    },
  },
  {
    id: 'a6',
    text: {
      en: 'I am open to abundance, and I welcome every good thing on its way to me.',
      es: 'Me abro a la abundancia y doy la bienvenida a todo lo bueno que llega a mí.',
    },
  },
  {
    id: 'a7',
    text: {
      en: 'I drink this harmonized water with gratitude for my body.',
      es: 'Bebo esta agua armonizada con gratitud por mi cuerpo.',
    },
  },
  {
    id: 'a8',
    text: {
      en: 'Infinite love and gratitude flow through me and through this water.',
      es: 'El amor infinito y la gratitud fluyen por mí y por esta agua.',
    },
  },
  {
    id: 'a9',
    text: {
      en: 'Divine Joy rises in me, light and bright, like sunlight on water.',
      es: 'La Alegría Divina nace en mí, ligera y luminosa, como el sol sobre el agua.',
    },
  },
]
