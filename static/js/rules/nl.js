// Rules pages in Dutch, translated from rules/en.js (the same structure, checked by
// e2e/unit/i18n.test.mjs). Terms of dammen: schijf, dam, lange dam (flying king), slaan,
// slagplicht, meerslag, meerderheidsregel, promotie, Turkse slag, remise.

const draw40 =
  'Je wint als je tegenstander geen stukken meer heeft of niet meer kan zetten. De partij is automatisch remise bij de derde herhaling van dezelfde stand (met dezelfde kant aan zet) en na 40 zetten van elke kant zonder slag of promotie.';
const draw64 = [
  'Je wint als je tegenstander geen stukken meer heeft of niet meer kan zetten. De derde herhaling van dezelfde stand is remise.',
  'De zettenlimieten volgen de officiële regels van het spel op 64 velden (FMJD-64 7.2.4–7.2.8); de server past ze zelf toe, claimen is niet nodig:',
  {
    ul: [
      'een eenzame dam tegen 1–2 stukken waarvan één dam: remise na de 5e zet van de sterkere kant;',
      'een eenzame dam op de grote diagonaal tegen 3 stukken met een dam: remise na 5 zetten, alleen geteld zolang de dam op die diagonaal staat;',
      'een eenzame dam tegen 3 of meer dammen: remise na de 15e zet van de sterkere kant;',
      'dammen aan beide kanten, 4–5 stukken: 30 zetten; 6–7 stukken: 60 zetten;',
      'dammen aan beide kanten, 8 stukken of meer: 15 zetten waarin alleen dammen zetten zonder te slaan;',
      'elke andere stand: 40 zetten van elke kant zonder slag of promotie.',
    ],
  },
  'Elke slag en elke promotie zet de tellingen terug op nul. De lopende tellers staan naast het bord.',
];

export default {
  index: {
    title: 'Damregels',
    lead: 'Zeven varianten, elk met een eigen zaal. Kies een variant om de volledige regels te lezen.',
    compare: 'De varianten vergeleken',
    common: 'Aan tafel',
    commonText: [
      'Als je een tafel maakt, stel je de bedenktijd van elke speler voor de hele partij in (1 tot 15 minuten) en de extra tijd na elke zet (0 tot 10 seconden). Je klok loopt alleen als jij aan zet bent; is je tijd op, dan verlies je.',
      'Een partij begint als beide plaatsen bezet zijn en beide spelers op Start hebben gedrukt. Je kunt remise aanbieden of opgeven; zolang niet beide spelers hun eerste zet hebben gedaan, kan de partij zonder uitslag worden afgebroken.',
      'Om te zetten klik je op je stuk en dan op het veld waar het heen moet. Bij een meerslag klik je elk landingsveld op volgorde aan; het bord biedt alleen de geldige vervolgen aan.',
      'Een willekeurige opening begint de partij na vier willekeurige zetten zonder slag (twee van elke kant). De optie „geen slagplicht” (alleen 8x8, vriendschappelijk) laat je een slag overslaan en een gewone zet doen.',
    ],
  },
  comparison: {
    head: ['Regel', 'Amerikaans', 'Russisch', 'Braziliaans', 'Spaans', 'Italiaans', 'Tsjechisch', 'Internationaal'],
    rows: [
      ['Bord / schijven per kant', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Begint', 'Zwart', 'Wit', 'Wit', 'Wit', 'Wit', 'Wit', 'Wit'],
      ['Schijven slaan achteruit', 'Nee', 'Ja', 'Ja', 'Nee', 'Nee', 'Nee', 'Ja'],
      ['Lange dammen', 'Nee', 'Ja', 'Ja', 'Ja', 'Nee', 'Ja', 'Ja'],
      ['Schijven mogen dammen slaan', 'Ja', 'Ja', 'Ja', 'Ja', 'Nee', 'Ja', 'Ja'],
      ['Verplicht de meeste stukken slaan', 'Nee', 'Nee', 'Ja', 'Ja', 'Ja', 'Nee', 'Ja'],
      ['Verdere voorrang bij het slaan', 'Vrije keus', 'Vrije keus', 'Vrije keus', 'Meeste dammen', 'Eerst slaat de dam, dan meeste dammen, dan vroegste dam', 'Kan een dam slaan, dan slaat een dam', 'Vrije keus'],
      ['Schijf die tijdens een slag de laatste rij bereikt', 'Wordt dam, de zet eindigt', 'Wordt dam en slaat verder als dam', 'Slaat verder als schijf; dam als de zet daar eindigt', 'Wordt dam, de zet eindigt', 'Wordt dam, de zet eindigt', 'Wordt dam, de zet eindigt', 'Slaat verder als schijf; dam als de zet daar eindigt'],
    ],
  },
  variants: {
    american: {
      title: 'Regels van Amerikaans dammen (Engels dammen, checkers)',
      intro: 'Amerikaans dammen, in Groot-Brittannië Engels dammen genoemd (checkers, draughts), is het spel op 8x8 waarmee de meeste Engelstaligen opgroeien. Schijven gaan vooruit, slaan is verplicht en de dam zet één veld in elke diagonale richting.',
      sections: [
        ['Bord en beginstelling', 'Het bord heeft 8 rijen en 8 kolommen; alleen de 32 donkere velden worden gebruikt. Elke speler begint met 12 schijven op de donkere velden van de drie dichtstbijzijnde rijen. Zwart begint. De velden zijn genummerd van 1 tot 32 (PDN-notatie); zwart begint op 1–12.'],
        ['Zetten', 'Een schijf zet één veld diagonaal vooruit naar een leeg donker veld. Schijven zetten en slaan nooit achteruit.'],
        ['Slaan', { ul: [
          'Een stuk springt diagonaal over een aangrenzend stuk van de tegenstander naar het lege veld direct erachter.',
          'Slaan is verplicht: als een van je stukken kan slaan, moet je slaan.',
          'Kan het stuk na de landing opnieuw slaan, dan moet het in dezelfde zet doorgaan, en het mag tussen de sprongen van richting veranderen.',
          'Zijn er meerdere slagen mogelijk, dan kies je er vrij een: de meeste stukken slaan is niet verplicht, maar een begonnen slag moet worden afgemaakt.',
        ] }],
        ['Dammen', 'Een schijf die de laatste rij bereikt, wordt dam. Komt hij daar door te slaan, dan wordt hij dam en eindigt de zet, ook als de nieuwe dam verder zou kunnen slaan. Een dam zet en slaat één veld diagonaal in alle vier de richtingen; het is geen lange dam.'],
        ['Winst en remise', draw40],
        ['Tips', { ul: [
          'Houd het centrum: stukken in het midden hebben meer zetten.',
          'Houd je achterste rij zo lang mogelijk: die belet de tegenstander dam te halen.',
          'Speel in paren: een stuk met een eigen stuk er direct achter kan niet van voren worden geslagen.',
          'Tel voor elke zet de gedwongen slagen: een goed geplaatst offer kan een dubbele of driedubbele slag voorbereiden.',
        ] }],
      ],
    },
    russian: {
      title: 'Regels van Russisch dammen',
      intro: 'Russisch dammen is een snel spel op 8x8 met lange dammen en schijven die ook achteruit slaan. De meeste stukken slaan is niet verplicht, en een schijf die tijdens een slag de laatste rij bereikt, wordt meteen dam en slaat verder.',
      sections: [
        ['Bord en beginstelling', 'Gespeeld op de 32 donkere velden van een bord van 8x8, 12 schijven per kant. Wit begint. De velden gebruiken algebraïsche notatie: lijnen a–h, rijen 1–8, a1 in de linkerbenedenhoek van wit. Wit begint op a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit. Dammen zijn lange dammen: ze gaan over een willekeurig aantal lege velden langs een diagonaal, vooruit of achteruit.'],
        ['Slaan', { ul: [
          'Slaan is verplicht.',
          'Schijven slaan vooruit en achteruit: ze springen over een aangrenzend stuk van de tegenstander naar het lege veld erachter.',
          'Een dam slaat op afstand: met de velden ertussen leeg springt hij over het stuk van de tegenstander en landt op een willekeurig leeg veld erachter; kan hij vanaf sommige van die velden opnieuw slaan, dan moet hij op een daarvan landen.',
          'Je mag elke slag kiezen: de meeste stukken slaan is niet verplicht. De gekozen slag moet worden afgemaakt.',
          'Geslagen stukken blijven tot het einde van de zet op het bord en mogen niet twee keer worden overgesprongen.',
        ] }],
        ['Promotie', 'Een schijf die de laatste rij bereikt, wordt dam. Komt hij daar tijdens een slag en kan hij verder slaan, dan wordt hij meteen dam en slaat hij als dam verder: het kenmerk van Russisch dammen.'],
        ['Winst en remise', ...draw64],
        ['Tips', { ul: [
          'Let op achterwaartse slagen: ook een schijf achter je linies is gevaarlijk.',
          'Een promotie midden in een slag kan een partij doen kantelen: kijk waar een reeks sprongen eindigt.',
          'Met vrije keus van slag kies je op de stand die ontstaat, niet op het aantal geslagen stukken.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Regels van Braziliaans dammen',
      intro: 'Braziliaans dammen brengt de slagregels van het internationale dammen op 10x10 naar het bord van 8x8. Schijven slaan achteruit, dammen zijn lange dammen, en heb je een keus uit slagen, dan moet je de slag nemen die de meeste stukken slaat.',
      sections: [
        ['Bord en beginstelling', 'Bord en beginstelling zijn die van Russisch dammen: 32 donkere velden en 12 schijven per kant op de drie dichtstbijzijnde rijen. Wit begint. Algebraïsche notatie (a1–h8).'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit. Dammen zijn lange dammen: een dam gaat over een willekeurig aantal lege velden langs een diagonaal, vooruit of achteruit.'],
        ['Slaan', { ul: [
          'Slaan is verplicht.',
          'Schijven slaan vooruit en achteruit: ze springen over een aangrenzend stuk van de tegenstander naar het lege veld erachter.',
          'Een lange dam mag een stuk van de tegenstander op afstand slaan als de velden ertussen leeg zijn, en op een willekeurig leeg veld erachter landen.',
          'Meerderheidsregel: je moet de slag nemen die de meeste stukken slaat. Een dam telt even zwaar als een schijf. Tussen even lange slagen kies je vrij.',
          'Een meerslag moet worden afgemaakt. Geslagen stukken blijven tot het einde van de zet op het bord en mogen niet twee keer worden overgesprongen.',
        ] }],
        ['Promotie', 'Een schijf die de laatste rij bereikt, wordt dam. Komt hij daar midden in een slag en kan hij verder slaan, dan gaat hij door als schijf en wordt hij alleen dam als de zet op de laatste rij eindigt (zoals bij internationaal dammen).'],
        ['Winst en remise', ...draw64],
        ['Tips', { ul: [
          'Tel voor beide kanten de langste slag: de meerderheidsregel neemt de keus weg, dus antwoorden zijn vaak te voorzien.',
          'Stuur met offers: geef een stuk zo weg dat de verplichte langste slag eindigt waar jij meer terugslaat.',
          'Pas op voor achterwaartse slagen: houd je stukken in compacte groepen.',
        ] }],
      ],
    },
    spanish: {
      title: 'Regels van Spaans dammen',
      intro: 'Spaans dammen combineert schijven die alleen vooruit zetten en slaan met lange dammen en twee strenge slagregels: sla de meeste stukken, en slaan twee wegen er evenveel, sla dan de meeste dammen.',
      sections: [
        ['Bord en beginstelling', 'Spaans dammen gebruikt 32 donkere velden en 12 schijven per kant. Het bord is het spiegelbeeld van de andere varianten op 8x8: de linkerbenedenhoek van elke speler is een licht veld. Wit begint. De velden zijn genummerd van 1 tot 32; veld 1 is de rechterbenedenhoek van wit, dat op 1–12 begint.'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit, nooit achteruit. Dammen zijn lange dammen: een dam gaat over een willekeurig aantal lege velden langs een diagonaal, in elke richting.'],
        ['Slaan', { ul: [
          'Slaan is verplicht.',
          'Schijven slaan alleen vooruit.',
          'Een lange dam mag een stuk van de tegenstander op afstand slaan als de velden ertussen leeg zijn, en op een willekeurig leeg veld erachter landen.',
          'Kwantiteitsregel: je moet de slag kiezen die de meeste stukken slaat.',
          'Kwaliteitsregel: slaan meerdere slagen evenveel stukken, dan moet je de slag kiezen die de meeste dammen slaat.',
          'Een meerslag moet worden afgemaakt. Geslagen stukken blijven tot het einde van de zet op het bord en mogen niet twee keer worden overgesprongen.',
        ] }],
        ['Promotie', 'Een schijf die de laatste rij bereikt, wordt dam. Komt hij daar tijdens een slag, dan wordt hij dam en eindigt de zet.'],
        ['Winst en remise', ...draw64],
        ['Tips', { ul: [
          'Dek je schijven van achteren: ze slaan niet achteruit, dus een dam achter je linies valt ongestraft aan.',
          'Haal als eerste een dam: een lange dam tegen schijven die alleen vooruit slaan, beslist vaak de partij.',
          'Tel eerst de stukken, dan de dammen, om te weten welke slag je tegenstander moet nemen.',
        ] }],
      ],
    },
    italian: {
      title: 'Regels van Italiaans dammen',
      intro: 'Italiaans dammen heeft dammen die één veld zetten, schijven die geen dammen mogen slaan en de strengste voorrangsregels bij het slaan van alle varianten.',
      sections: [
        ['Bord en beginstelling', 'Gespeeld op 32 donkere velden, 12 schijven per kant, op een gespiegeld bord: de linkerbenedenhoek van elke speler is een licht veld. Wit begint. De velden zijn genummerd van 1 tot 32; veld 1 is de linkerbovenhoek, zwart begint op 1–12 en wit op 21–32.'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit. Dammen zetten één veld diagonaal in elke richting; het zijn geen lange dammen.'],
        ['Slaan', { ul: [
          'Slaan is verplicht en een begonnen slag moet worden afgemaakt.',
          'Schijven slaan alleen vooruit en mogen nooit een dam slaan.',
          'Van alle slagen, in deze volgorde: 1) sla de meeste stukken; 2) kan een dam slaan, sla dan met de dam; 3) sla de meeste dammen; 4) kom zo vroeg mogelijk in de reeks een dam tegen. Wat er dan nog te kiezen valt, is vrij.',
        ] }],
        ['Promotie', 'Een schijf die de laatste rij bereikt, wordt dam, en de zet eindigt.'],
        ['Winst en remise', draw40],
        ['Tips', { ul: [
          'Een dam is veilig voor schijven: zet hem gerust in het centrum.',
          'De voorrangsregels maken de slag van de tegenstander precies voorspelbaar; tel hem voor elk offer.',
        ] }],
      ],
    },
    czech: {
      title: 'Regels van Tsjechisch dammen',
      intro: 'Tsjechisch dammen zit tussen Russisch en Spaans in. Dammen zijn lange dammen en schijven slaan alleen vooruit, maar de meeste stukken slaan is niet verplicht. In plaats daarvan geldt één voorrang: als een van je dammen kan slaan, moet je met een dam slaan.',
      sections: [
        ['Bord en beginstelling', 'Tsjechisch dammen gebruikt 32 donkere velden en 12 schijven per kant. Wit begint. Algebraïsche notatie (a1–h8), zoals bij Russisch dammen.'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit. Dammen zijn lange dammen: een dam gaat over een willekeurig aantal lege velden langs een diagonaal, vooruit of achteruit.'],
        ['Slaan', { ul: [
          'Slaan is verplicht.',
          'Schijven slaan alleen vooruit.',
          'Een lange dam mag een stuk van de tegenstander op afstand slaan als de velden ertussen leeg zijn, en op een willekeurig leeg veld erachter landen.',
          'Dam eerst: kan een van je dammen slaan, dan moet je met een dam slaan, ook als een schijf meer stukken zou slaan.',
          'Verder mag je elke slag kiezen; de meeste stukken slaan is niet verplicht.',
          'De gekozen slag moet worden afgemaakt. Geslagen stukken blijven tot het einde van de zet op het bord en mogen niet twee keer worden overgesprongen.',
        ] }],
        ['Promotie', 'Een schijf die de laatste rij bereikt, wordt dam. Komt hij daar tijdens een slag, dan wordt hij dam en eindigt de zet (Tsjechische bronnen zwijgen hierover; we volgen de Spaanse regel).'],
        ['Winst en remise', ...draw64],
        ['Tips', { ul: [
          'Gebruik de regel dam eerst: een stuk aanbieden aan een dam van de tegenstander dwingt een damslag af.',
          'De regel bindt jou ook: kijk voor je dam haalt wat je nieuwe dam verplicht moet slaan.',
          'Dek je schijven van achteren: ze slaan niet achteruit, dus een dam achter je linies is gevaarlijk.',
        ] }],
      ],
    },
    international: {
      title: 'Regels van internationaal dammen (10x10)',
      intro: 'Internationaal dammen is het toernooispel van de FMJD: een bord van 10x10, 20 schijven per kant, schijven slaan achteruit, dammen zijn lange dammen, en je moet de meeste stukken slaan.',
      sections: [
        ['Bord en beginstelling', 'Gespeeld op de 50 donkere velden van een bord van 10x10, 20 schijven per kant op de vier dichtstbijzijnde rijen. Wit begint. De velden zijn genummerd van 1 tot 50; zwart staat op 1–20, wit op 31–50.'],
        ['Zetten', 'Schijven zetten één veld diagonaal vooruit. Dammen zijn lange dammen: ze gaan over een willekeurig aantal lege velden langs een diagonaal, in elke richting.'],
        ['Slaan', { ul: [
          'Slaan is verplicht, voor schijven ook achteruit.',
          'Een dam slaat op afstand en landt op een willekeurig leeg veld achter het geslagen stuk, tenzij hij vanaf sommige daarvan opnieuw kan slaan: dan moet hij daar landen en doorgaan.',
          'Meerderheidsregel: je moet de slag nemen die de meeste stukken slaat; een dam telt als een schijf.',
          'Geslagen stukken blijven tot het einde van de zet op het bord en mogen niet twee keer worden overgesprongen (de regel van de Turkse slag).',
        ] }],
        ['Promotie', 'Een schijf wordt dam als hij zijn zet op de laatste rij beëindigt. Passeert hij de laatste rij midden in een slag, dan gaat hij door als schijf en wordt hij geen dam.'],
        ['Winst en remise', 'Je wint als de tegenstander geen stukken of geen zet meer heeft. Remise: de derde herhaling van een stand; 25 zetten van elke kant waarin alleen dammen zetten (een schijfzet, een slag of een promotie begint de telling opnieuw); een eenzame dam tegen drie stukken waarvan minstens één dam: remise na 16 zetten van elke kant; een eenzame dam tegen hoogstens twee stukken waarvan één dam: remise na 5 zetten van elke kant.'],
        ['Tips', { ul: [
          'De meerderheidsregel maakt combinaties mogelijk: een offer dwingt de langste slag af, waarna jij meer terugslaat.',
          'Vecht om het centrum (velden 22–29) en laat geen gaten achter je schijven, want schijven slaan achteruit.',
        ] }],
      ],
    },
  },
};
