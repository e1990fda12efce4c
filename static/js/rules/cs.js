// Rules pages in Czech, translated from rules/en.js (the same structure, checked by
// e2e/unit/i18n.test.mjs). Terms of dáma: kámen, dáma, dáma s dlouhým tahem, braní,
// proměna, pravidlo většiny, turecký úder, remíza.

const draw40 =
  'Vyhráváte, když soupeři nezbyl žádný kámen nebo nemůže táhnout. Partie končí automaticky remízou při třetím opakování téže pozice (se stejnou stranou na tahu) a po 40 tazích každé strany bez braní a bez proměny.';
const draw64 = [
  'Vyhráváte, když soupeři nezbyl žádný kámen nebo nemůže táhnout. Třetí opakování téže pozice je remíza.',
  'Limity tahů se řídí oficiálními pravidly hry na 64 polích (FMJD-64 7.2.4–7.2.8); server je uplatňuje sám, není třeba o nic žádat:',
  {
    ul: [
      'osamocená dáma proti 1–2 kamenům, z nichž jeden je dáma: remíza po 5. tahu silnější strany;',
      'osamocená dáma na hlavní diagonále proti 3 kamenům s dámou: remíza po 5 tazích, které se počítají, jen dokud dáma stojí na této diagonále;',
      'osamocená dáma proti 3 a více dámám: remíza po 15. tahu silnější strany;',
      'dámy na obou stranách, 4–5 kamenů: 30 tahů; 6–7 kamenů: 60 tahů;',
      'dámy na obou stranách, 8 kamenů a více: 15 tahů, ve kterých táhly jen dámy a nic nebraly;',
      'jakákoli jiná pozice: 40 tahů každé strany bez braní a bez proměny.',
    ],
  },
  'Každé braní a každá proměna začínají počítání znovu. Aktuální počítadla jsou vidět vedle šachovnice.',
];

export default {
  index: {
    title: 'Pravidla dámy',
    lead: 'Sedm variant pravidel, každá má svou hernu. Vyberte variantu a přečtěte si její úplná pravidla.',
    compare: 'Srovnání variant',
    common: 'U stolu',
    commonText: [
      'Při zakládání stolu nastavíte čas každého hráče na celou partii (1 až 15 minut) a přídavek po každém tahu (0 až 10 sekund). Vaše hodiny běží, jen když jste na tahu; když vám čas vyprší, prohráváte.',
      'Partie začne, když jsou obě místa obsazená a oba hráči stiskli Start. Můžete nabídnout remízu nebo se vzdát; dokud oba hráči neudělali první tah, lze partii přerušit bez výsledku.',
      'Táhnete tak, že kliknete na svůj kámen a potom na pole, kam má jít. Při vícenásobném braní klikejte postupně na každé pole dopadu; šachovnice nabízí jen platná pokračování.',
      'Náhodné zahájení začne partii po čtyřech náhodných tazích bez braní (dva za každou stranu). Volba „braní nepovinné“ (jen 8x8, nehodnocené partie) dovolí nebrat a zahrát obyčejný tah.',
    ],
  },
  comparison: {
    head: ['Pravidlo', 'Americká', 'Ruská', 'Brazilská', 'Španělská', 'Italská', 'Česká', 'Mezinárodní'],
    rows: [
      ['Šachovnice / kamenů na stranu', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Začíná', 'Černý', 'Bílý', 'Bílý', 'Bílý', 'Bílý', 'Bílý', 'Bílý'],
      ['Kameny berou dozadu', 'Ne', 'Ano', 'Ano', 'Ne', 'Ne', 'Ne', 'Ano'],
      ['Dámy s dlouhým tahem', 'Ne', 'Ano', 'Ano', 'Ano', 'Ne', 'Ano', 'Ano'],
      ['Kameny smějí brát dámy', 'Ano', 'Ano', 'Ano', 'Ano', 'Ne', 'Ano', 'Ano'],
      ['Povinnost brát nejvíc kamenů', 'Ne', 'Ne', 'Ano', 'Ano', 'Ano', 'Ne', 'Ano'],
      ['Další přednosti braní', 'Volná volba', 'Volná volba', 'Volná volba', 'Nejvíc dam', 'Nejdřív bere dáma, pak nejvíc dam, pak dáma dřív', 'Může-li brát dáma, bere dáma', 'Volná volba'],
      ['Kámen, který při braní dojde na poslední řadu', 'Promění se, tah končí', 'Promění se a bere dál jako dáma', 'Bere dál jako kámen; promění se, skončí-li tam tah', 'Promění se, tah končí', 'Promění se, tah končí', 'Promění se, tah končí', 'Bere dál jako kámen; promění se, skončí-li tam tah'],
    ],
  },
  variants: {
    american: {
      title: 'Pravidla americké dámy (anglická dáma, checkers)',
      intro: 'Americká dáma, v Británii zvaná anglická (checkers, draughts), je hra na šachovnici 8x8, se kterou vyrůstá většina anglicky mluvících hráčů. Kameny táhnou dopředu, braní je povinné a dáma táhne o jedno pole libovolným šikmým směrem.',
      sections: [
        ['Šachovnice a postavení', 'Šachovnice má 8 řad a 8 sloupců; hraje se jen na 32 tmavých polích. Každý hráč začíná s 12 kameny na tmavých polích tří nejbližších řad. Začíná černý. Pole jsou očíslována od 1 do 32 (notace PDN); černý začíná na 1–12.'],
        ['Tahy', 'Kámen táhne o jedno pole šikmo dopředu na volné tmavé pole. Kameny nikdy netáhnou ani neberou dozadu.'],
        ['Braní', { ul: [
          'Kámen přeskočí šikmo sousední soupeřův kámen na volné pole hned za ním.',
          'Braní je povinné: může-li kterýkoli váš kámen brát, musíte brát.',
          'Může-li kámen po dopadu brát znovu, musí pokračovat v témž tahu a mezi skoky smí měnit směr.',
          'Je-li možných braní víc, můžete zvolit kterékoli: není povinnost brát nejvíc kamenů, ale započaté braní se musí dokončit.',
        ] }],
        ['Dámy', 'Kámen, který dojde na poslední řadu, se promění v dámu. Dojde-li tam braním, promění se a tah končí, i kdyby nová dáma mohla brát dál. Dáma táhne a bere o jedno pole šikmo všemi čtyřmi směry; dlouhý tah nemá.'],
        ['Výhra a remíza', draw40],
        ['Rady', { ul: [
          'Držte střed: kameny uprostřed mají víc tahů.',
          'Držte svou zadní řadu co nejdéle: brání soupeři v proměně.',
          'Hrajte ve dvojicích: kámen, za kterým hned stojí váš další kámen, nelze vzít zepředu.',
          'Před každým tahem spočítejte vynucená braní: dobře umístěná oběť může připravit dvojitý nebo trojitý skok.',
        ] }],
      ],
    },
    russian: {
      title: 'Pravidla ruské dámy',
      intro: 'Ruská dáma je rychlá hra na šachovnici 8x8 s dámami s dlouhým tahem a kameny, které berou i dozadu. Není povinnost brát nejvíc kamenů a kámen, který při braní dojde na poslední řadu, se hned promění a bere dál.',
      sections: [
        ['Šachovnice a postavení', 'Hraje se na 32 tmavých polích šachovnice 8x8, 12 kamenů na každé straně. Začíná bílý. Pole se označují algebraicky: sloupce a–h, řady 1–8, a1 je levý dolní roh bílého. Bílý začíná na a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu. Dámy mají dlouhý tah: táhnou o libovolný počet volných polí po diagonále dopředu i dozadu.'],
        ['Braní', { ul: [
          'Braní je povinné.',
          'Kameny berou dopředu i dozadu: přeskočí sousední soupeřův kámen na volné pole za ním.',
          'Dáma bere na dálku: jsou-li pole mezi nimi volná, přeskočí soupeřův kámen a dopadne na kterékoli volné pole za ním; může-li z některých z těchto polí brát dál, musí dopadnout na jedno z nich.',
          'Zvolit můžete kterékoli braní: není povinnost brát nejvíc kamenů. Zvolené braní se musí dokončit.',
          'Brané kameny zůstávají na šachovnici až do konce tahu a nelze je přeskočit dvakrát.',
        ] }],
        ['Proměna', 'Kámen, který dojde na poslední řadu, se promění v dámu. Dojde-li tam během braní a může brát dál, promění se hned a bere dál už jako dáma: to je typický rys ruské dámy.'],
        ['Výhra a remíza', ...draw64],
        ['Rady', { ul: [
          'Pozor na braní dozadu: i kámen za vašimi liniemi je nebezpečný.',
          'Proměna uprostřed braní může obrátit partii: sledujte, kde série skoků skončí.',
          'Když je volba braní volná, rozhodujte podle výsledné pozice, ne podle počtu braných kamenů.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Pravidla brazilské dámy',
      intro: 'Brazilská dáma přenáší pravidla braní mezinárodní dámy 10x10 na šachovnici 8x8. Kameny berou dozadu, dámy mají dlouhý tah, a máte-li na výběr víc braní, musíte zvolit cestu, která bere nejvíc kamenů.',
      sections: [
        ['Šachovnice a postavení', 'Šachovnice i postavení jsou stejné jako v ruské dámě: 32 tmavých polí a 12 kamenů na každé straně na třech nejbližších řadách. Začíná bílý. Algebraická notace (a1–h8).'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu. Dámy mají dlouhý tah: dáma táhne o libovolný počet volných polí po diagonále dopředu i dozadu.'],
        ['Braní', { ul: [
          'Braní je povinné.',
          'Kameny berou dopředu i dozadu: přeskočí sousední soupeřův kámen na volné pole za ním.',
          'Dáma s dlouhým tahem smí brát soupeřův kámen na dálku, jsou-li pole mezi nimi volná, a dopadnout na kterékoli volné pole za ním.',
          'Pravidlo většiny: musíte zahrát braní, které bere nejvíc kamenů. Dáma se počítá stejně jako kámen. Mezi stejně dlouhými cestami volíte volně.',
          'Vícenásobné braní se musí dokončit. Brané kameny zůstávají na šachovnici až do konce tahu a nelze je přeskočit dvakrát.',
        ] }],
        ['Proměna', 'Kámen, který dojde na poslední řadu, se promění v dámu. Dojde-li tam uprostřed braní a může brát dál, pokračuje jako kámen a promění se, jen když tah skončí na poslední řadě (jako v mezinárodní dámě).'],
        ['Výhra a remíza', ...draw64],
        ['Rady', { ul: [
          'Spočítejte nejdelší braní pro obě strany: pravidlo většiny bere volbu, takže odpovědi lze často předvídat.',
          'Řiďte hru obětmi: dejte kámen tak, aby povinné nejdelší braní skončilo tam, kde vezmete víc zpět.',
          'Dejte pozor na braní dozadu: držte kameny v sevřených skupinách.',
        ] }],
      ],
    },
    spanish: {
      title: 'Pravidla španělské dámy',
      intro: 'Španělská dáma spojuje kameny, které táhnou a berou jen dopředu, s dámami s dlouhým tahem a dvěma přísnými pravidly braní: brát nejvíc kamenů, a berou-li dvě cesty stejně, brát nejvíc dam.',
      sections: [
        ['Šachovnice a postavení', 'Španělská dáma používá 32 tmavých polí a 12 kamenů na každé straně. Šachovnice je zrcadlovým obrazem ostatních variant 8x8: levý dolní roh každého hráče je světlé pole. Začíná bílý. Pole jsou očíslována od 1 do 32; pole 1 je pravý dolní roh bílého, který začíná na 1–12.'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu, nikdy dozadu. Dámy mají dlouhý tah: dáma táhne o libovolný počet volných polí po diagonále libovolným směrem.'],
        ['Braní', { ul: [
          'Braní je povinné.',
          'Kameny berou jen dopředu.',
          'Dáma s dlouhým tahem smí brát soupeřův kámen na dálku, jsou-li pole mezi nimi volná, a dopadnout na kterékoli volné pole za ním.',
          'Pravidlo množství: musíte zvolit braní, které bere nejvíc kamenů.',
          'Pravidlo kvality: bere-li několik braní stejně kamenů, musíte zvolit to, které bere nejvíc dam.',
          'Vícenásobné braní se musí dokončit. Brané kameny zůstávají na šachovnici až do konce tahu a nelze je přeskočit dvakrát.',
        ] }],
        ['Proměna', 'Kámen, který dojde na poslední řadu, se promění v dámu. Dojde-li tam během braní, promění se a tah končí.'],
        ['Výhra a remíza', ...draw64],
        ['Rady', { ul: [
          'Kryjte kameny zezadu: dozadu neberou, takže dáma za vašimi liniemi útočí beztrestně.',
          'Získejte první dámu: dáma s dlouhým tahem proti kamenům, které berou jen dopředu, často rozhodne partii.',
          'Počítejte nejdřív kameny, pak dámy, abyste věděli, jaké braní musí soupeř zahrát.',
        ] }],
      ],
    },
    italian: {
      title: 'Pravidla italské dámy',
      intro: 'Italská dáma má dámy, které táhnou o jedno pole, kameny, které nesmějí brát dámy, a nejpřísnější přednosti braní ze všech variant.',
      sections: [
        ['Šachovnice a postavení', 'Hraje se na 32 tmavých polích, 12 kamenů na každé straně, na zrcadlové šachovnici: levý dolní roh každého hráče je světlé pole. Začíná bílý. Pole jsou očíslována od 1 do 32; pole 1 je levý horní roh, černý začíná na 1–12 a bílý na 21–32.'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu. Dámy táhnou o jedno pole šikmo libovolným směrem; dlouhý tah nemají.'],
        ['Braní', { ul: [
          'Braní je povinné a započaté braní se musí dokončit.',
          'Kameny berou jen dopředu a nikdy nesmějí brát dámu.',
          'Ze všech braní v tomto pořadí: 1) brát nejvíc kamenů; 2) může-li brát dáma, brát dámou; 3) brát nejvíc dam; 4) narazit na dámu v sérii co nejdřív. Co zbude, je volná volba.',
        ] }],
        ['Proměna', 'Kámen, který dojde na poslední řadu, se promění v dámu a tah končí.'],
        ['Výhra a remíza', draw40],
        ['Rady', { ul: [
          'Dáma je před kameny v bezpečí: nasaďte ji směle do středu.',
          'Pravidla předností dělají soupeřovo braní přesně předvídatelným; spočítejte ho před každou obětí.',
        ] }],
      ],
    },
    czech: {
      title: 'Pravidla české dámy',
      intro: 'Česká dáma stojí mezi ruskou a španělskou. Dámy mají dlouhý tah a kameny berou jen dopředu, ale není povinnost brát nejvíc kamenů. Místo toho platí jedna přednost: kdykoli může brát kterákoli vaše dáma, musíte brát dámou.',
      sections: [
        ['Šachovnice a postavení', 'Česká dáma používá 32 tmavých polí a 12 kamenů na každé straně. Začíná bílý. Algebraická notace (a1–h8), jako v ruské dámě.'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu. Dámy mají dlouhý tah: dáma táhne o libovolný počet volných polí po diagonále dopředu i dozadu.'],
        ['Braní', { ul: [
          'Braní je povinné.',
          'Kameny berou jen dopředu.',
          'Dáma s dlouhým tahem smí brát soupeřův kámen na dálku, jsou-li pole mezi nimi volná, a dopadnout na kterékoli volné pole za ním.',
          'Dáma má přednost: může-li brát kterákoli vaše dáma, musíte brát dámou, i kdyby kámen vzal víc kamenů.',
          'Jinak můžete zvolit kterékoli braní; není povinnost brát nejvíc kamenů.',
          'Zvolené braní se musí dokončit. Brané kameny zůstávají na šachovnici až do konce tahu a nelze je přeskočit dvakrát.',
        ] }],
        ['Proměna', 'Kámen, který dojde na poslední řadu, se promění v dámu. Dojde-li tam během braní, promění se a tah končí (české prameny o tom mlčí; řídíme se španělským pravidlem).'],
        ['Výhra a remíza', ...draw64],
        ['Rady', { ul: [
          'Využijte přednost dámy: kámen nabídnutý soupeřově dámě vynutí braní dámou.',
          'Pravidlo platí i pro vás: než proměníte kámen v dámu, podívejte se, co bude nová dáma muset brát.',
          'Kryjte kameny zezadu: dozadu neberou, takže dáma za vašimi liniemi je nebezpečná.',
        ] }],
      ],
    },
    international: {
      title: 'Pravidla mezinárodní dámy (10x10)',
      intro: 'Mezinárodní dáma je turnajová hra FMJD: šachovnice 10x10, 20 kamenů na každé straně, kameny berou dozadu, dámy mají dlouhý tah a brát se musí nejvíc kamenů.',
      sections: [
        ['Šachovnice a postavení', 'Hraje se na 50 tmavých polích šachovnice 10x10, 20 kamenů na každé straně na čtyřech nejbližších řadách. Začíná bílý. Pole jsou očíslována od 1 do 50; černý stojí na 1–20, bílý na 31–50.'],
        ['Tahy', 'Kameny táhnou o jedno pole šikmo dopředu. Dámy mají dlouhý tah: táhnou o libovolný počet volných polí po diagonále libovolným směrem.'],
        ['Braní', { ul: [
          'Braní je povinné, pro kameny i dozadu.',
          'Dáma bere na dálku a dopadne na kterékoli volné pole za braným kamenem, ledaže z některých z nich může brát dál: pak musí dopadnout tam a pokračovat.',
          'Pravidlo většiny: musíte zahrát braní, které bere nejvíc kamenů; dáma se počítá jako kámen.',
          'Brané kameny zůstávají na šachovnici až do konce tahu a nelze je přeskočit dvakrát (pravidlo tureckého úderu).',
        ] }],
        ['Proměna', 'Kámen se promění v dámu, když skončí tah na poslední řadě. Projde-li poslední řadou uprostřed braní, pokračuje jako kámen a nepromění se.'],
        ['Výhra a remíza', 'Vyhráváte, když soupeř nemá žádný kámen nebo tah. Remíza: třetí opakování pozice; 25 tahů každé strany, ve kterých táhnou jen dámy (tah kamenem, braní nebo proměna začínají počítání znovu); osamocená dáma proti třem kamenům, z nichž aspoň jeden je dáma: remíza po 16 tazích každé strany; osamocená dáma proti nejvýše dvěma kamenům, z nichž jeden je dáma: remíza po 5 tazích každé strany.'],
        ['Rady', { ul: [
          'Pravidlo většiny umožňuje kombinace: oběť vynutí nejdelší braní, po kterém vezmete víc zpět.',
          'Bojujte o střed (pole 22–29) a nenechávejte za svými kameny díry, protože kameny berou dozadu.',
        ] }],
      ],
    },
  },
};
